package org.hostir.studio.exec;

/**
 * Whether and how a run's outputs are checked against the reference (docs/validation.md): not at all
 * ({@code --no-validate}), every element up to {@link OutputValidator#FULL_UP_TO} output elements and a sample
 * beyond (the default), or every element whatever the size ({@code --validate=full}).
 */
public enum ValidationMode { OFF, AUTO, FULL }
