package org.hostir.studio.ui.tests.journeys;

import org.eclipse.ui.IWorkbenchPage;
import org.hostir.studio.ui.tests.input.Person;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A journey test's life cycle: the workbench at its journey size and a person before each test, the editors it
 * opened closed after it. A subclass's own {@code @BeforeEach} runs after this one.
 */
public abstract class JourneyTest {
    protected Journey journey;
    protected IWorkbenchPage page;
    protected Person person;

    @BeforeEach
    public void startJourney() {
        journey = Journey.start();
        page = journey.page();
        person = journey.person();
    }

    @AfterEach
    public void closeJourneyEditors() { journey.closeEditors(); }
}
