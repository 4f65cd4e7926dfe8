package org.hostir.studio.tests.hostile;

/** What the Deliver text says must happen to a case's input (not what happens today). */
enum Expect {
    /** The input is legitimate: the command must do its work, with clean output. */
    ACCEPT,
    /** The input is wrong: the command must refuse it with one clear line, exit 2. */
    REFUSE,
    /** Either is right (a name may be refused by a rule or accepted and escaped), but nothing else. */
    EITHER
}
