package org.hostir.studio.ir.parse;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.Map;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

import org.hostir.studio.ir.Extent;
import org.hostir.studio.ir.IdCounters;
import org.hostir.studio.ir.NvFuserGeneration;

/**
 * What reading one container accumulates besides the nodes: fresh node ids (past the ids the dump prints), the
 * symbols and largest ids seen (for the container's counters), which generation's spellings appeared, warnings.
 * A trial parse (looking for where an unreadable statement ends) takes a {@link #mark} and rolls back to it.
 */
final class ReadState {
    final Set<String> loopIndices;
    final TreeMap<Integer, Extent.Symbolic> symbols = new TreeMap<>();
    /** Each generation-telling spelling seen, with the generations that print it (docs/conformance.md). */
    final Map<String, Set<NvFuserGeneration>> spellings = new TreeMap<>();
    final List<DumpWarning> warnings = new ArrayList<>();
    /** The spellings added, in order, so that a reset undoes its trial's in the time the trial took. */
    private final List<String> journal = new ArrayList<>();
    private int nextNode;
    int maxTensor = -1;
    int maxIterDomain = -1;
    int maxHostUnit = -1;

    /** Whether {@code select( .. )} is a fusion's SelectOp (a program of a generation that prints HirAliasSelect so). */
    final boolean selectIsFusionOp;

    ReadState(Set<String> loopIndices, int firstFreeNodeId, boolean selectIsFusionOp) {
        this.loopIndices = Set.copyOf(loopIndices);
        this.nextNode = firstFreeNodeId;
        this.selectIsFusionOp = selectIsFusionOp;
    }

    int freshNodeId() { return nextNode++; }

    void sawTensor(int id) { maxTensor = Math.max(maxTensor, id); }

    void sawIterDomain(int id) { maxIterDomain = Math.max(maxIterDomain, id); }

    void sawHostUnit(int n) { maxHostUnit = Math.max(maxHostUnit, n); }

    Extent.Symbolic symbol(int id) { return symbols.computeIfAbsent(id, i -> new Extent.Symbolic(i, "i" + i)); }

    IdCounters counters() {
        int nextSymbol = symbols.isEmpty() ? 0 : symbols.lastKey() + 1;
        return new IdCounters(maxTensor + 1, maxIterDomain + 1, nextSymbol, nextNode, maxHostUnit + 1);
    }

    /** A spelling that only {@code generations} print. */
    void saw(String spelling, NvFuserGeneration first, NvFuserGeneration... more) {
        saw(spelling, EnumSet.of(first, more));
    }

    void saw(String spelling, Set<NvFuserGeneration> generations) {
        if (spellings.putIfAbsent(spelling, Set.copyOf(generations)) == null) journal.add(spelling);
    }

    /** Sizes only: a mark per statement must not copy what all the statements before it saw. */
    record Mark(int nextNode, int warnings, int journal, int symbols) {}

    Mark mark() { return new Mark(nextNode, warnings.size(), journal.size(), symbols.size()); }

    void reset(Mark m) {
        nextNode = m.nextNode();
        while (warnings.size() > m.warnings()) warnings.removeLast();
        while (journal.size() > m.journal()) spellings.remove(journal.removeLast());
        // symbols and largest ids seen in a failed trial stay: they only make counters larger, never wrong
    }
}
