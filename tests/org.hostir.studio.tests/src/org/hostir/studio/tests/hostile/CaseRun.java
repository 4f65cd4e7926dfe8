package org.hostir.studio.tests.hostile;

import java.util.List;

/** What one command printed and returned; {@code hung}: no answer within the case's time. */
record CaseRun(List<String> args, int code, String out, String err, boolean hung) {
    List<String> errLines() { return err.lines().toList(); }
}
