package org.hostir.studio.ir.parse;

import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;

import org.hostir.studio.ir.host.ForLoop;
import org.hostir.studio.ir.host.HostNode;
import org.hostir.studio.ir.host.HostUnit;
import org.hostir.studio.ir.host.IfThenElse;
import org.hostir.studio.ir.host.PostOnStream;

/** PostOnStream nodes are read before the HostUnits they post are defined: this puts the definitions in. */
final class Units {
    private Units() {}

    static List<HostNode> resolve(List<HostNode> nodes, Map<Integer, HostUnit> units, IntConsumer missing) {
        return nodes.stream().map(n -> resolve(n, units, missing)).toList();
    }

    private static HostNode resolve(HostNode node, Map<Integer, HostUnit> units, IntConsumer missing) {
        // only these three hold or contain a PostOnStream; every other node kind stays as it is
        if (node instanceof PostOnStream p) {
            HostUnit unit = units.get(p.unit().number());
            if (unit != null) return new PostOnStream(p.id(), unit, p.inputs(), p.outputs(), p.launch());
            missing.accept(p.unit().number());
            return p;
        }
        if (node instanceof ForLoop f) return f.withBody(resolve(f.body(), units, missing));
        if (node instanceof IfThenElse i) {
            return new IfThenElse(i.id(), i.predicate(), resolve(i.thenBody(), units, missing),
                    resolve(i.elseBody(), units, missing));
        }
        return node;
    }
}
