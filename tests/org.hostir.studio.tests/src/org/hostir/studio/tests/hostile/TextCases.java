package org.hostir.studio.tests.hostile;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Hostile names and descriptions (issue 31 items 1, 3 and 4), as valid JSON escapes, through every command that
 * reads a fusion. A fusion's name is refused by a rule or accepted and escaped; a description is kept and escaped
 * everywhere (terminal, trace, manifest, exports); a tensor name, which exports write as code, is an identifier or
 * refused.
 */
final class TextCases {
    private TextCases() {}

    static List<HostileCase> all() {
        List<HostileText> texts = new ArrayList<>(HostileText.ALL);
        texts.add(HostileText.PLAIN);
        List<HostileCase> cases = new ArrayList<>();
        for (HostileText t : texts) {
            String body = Fixtures.escaped(t.text());
            for (FusionCommand command : FusionCommand.values()) {
                cases.add(refusedByRule(command.on("names", "fusion name: " + t.label(), Expect.EITHER,
                        utf8(Fixtures.fusion(body, Fixtures.DESCRIPTION, "4")))));
                cases.add(refusedByRule(command.on("names", "description: " + t.label(), description(t),
                        utf8(Fixtures.fusion(Fixtures.NAME, body, "4")))));
            }
            String tensor = Fixtures.fusion().replace("\"in\"", "\"" + body + "\"");
            Expect identifier = t == HostileText.PLAIN ? Expect.ACCEPT : Expect.REFUSE;
            for (FusionCommand command : List.of(FusionCommand.CHECK, FusionCommand.EXPORT_PYTHON)) {
                // no comparison with the plain export: an accepted tensor name is a variable there
                HostileCase c = command.on("names", "tensor name: " + t.label(), identifier, utf8(tensor));
                cases.add(refusedByRule(new HostileCase(c.family(), c.label(), c.expect(), c.setup(), c.args(),
                        c.mustName(), c.rule(), c.outputs(), HostileCase.NO_CHECK, c.heavy())));
            }
        }
        return cases;
    }

    /** A description is kept, unless it is past the schema's bound on its length (then refused by that rule). */
    private static Expect description(HostileText t) {
        return t.text().length() > 65_536 ? Expect.EITHER : Expect.ACCEPT;
    }

    /** A refusal names the fusion file and the rule. */
    static HostileCase refusedByRule(HostileCase c) {
        return c.naming(dir -> List.of(dir.resolve(Fixtures.FUSION).toString())).withRule();
    }

    static byte[] utf8(String text) { return text.getBytes(StandardCharsets.UTF_8); }
}
