/**
 * The rules of a fusion: what makes a fusion (IR) valid, checked by {@code FusionValidator} over the IR, so that
 * the lowering validates fusions built in memory too, and the symbol bindings the checks read. Below
 * {@code lower} and {@code file}; each rule's id and wording is {@code diag.Rule}.
 */
package org.hostir.studio.rules;
