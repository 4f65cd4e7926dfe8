package org.hostir.studio.ui.tests.journeys;

import org.junit.jupiter.api.AfterEach;

/**
 * A journey through a debug launch's save question: after each test the question's watch stops, then the runs, node
 * breakpoints and Run/Debug preferences the test left are undone ({@link Debugging#cleanUp}), in that order.
 */
public abstract class DebugSaveJourneyTest extends JourneyTest {
    /** The save question the test watches for, once it set one up. */
    protected SaveQuestion question;

    @AfterEach
    public void cleanUp() throws Exception {
        if (question != null) question.stop();
        Debugging.cleanUp();
    }
}
