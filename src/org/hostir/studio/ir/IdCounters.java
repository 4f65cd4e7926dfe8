package org.hostir.studio.ir;

/**
 * The next free id of each numbering: tensors ({@code T<n>}), iter domains, symbols ({@code i<n>}), Host IR nodes
 * and HostUnits. Names are deterministic because every id is handed out in program order from these.
 */
public record IdCounters(int nextTensor, int nextIterDomain, int nextSymbol, int nextNode, int nextHostUnit) {
    public static final IdCounters ZERO = new IdCounters(0, 0, 0, 0, 0);
}
