package org.hostir.studio.tests.hostile;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Repeated and malformed flags (issue 31 item 6: a repeated {@code --set M} silently took the last value): every
 * single-valued flag and every switch of every command given twice (the same value or two), {@code --set} and
 * {@code --option} of one key twice, unknown and misspelt flags, {@code --flag=} with nothing, a switch with a
 * value; and {@code sweep}'s lists, refused before the first point.
 */
final class FlagCases {
    private FlagCases() {}

    /** For each command: its single-valued flags with a valid value, and its switches. */
    private record Flags(String command, Map<String, String> valued, List<String> switches) {}

    private static final List<Flags> COMMANDS = List.of(
            new Flags("check", Map.of("--devices", "2"), List.of()),
            new Flags("lower", Map.of("--devices", "2", "--rank", "1"), List.of("--passes", "--diff", "--json")),
            new Flags("export --python", Map.of("--devices", "2"), List.of("--python")),
            new Flags("export --cpp", Map.of("--devices", "2"), List.of("--cpp")),
            new Flags("diff", Map.of("--devices", "2", "--rank", "1"), List.of()),
            new Flags("dump", Map.of("--program", "1"), List.of("--report")),
            new Flags("run", Map.of("--devices", "2", "--streams", "4", "--iterations", "1", "--warmup", "0", "--seed",
                    "7", "--timeout", "20", "--backend", "cpu"),
                    List.of("--validate", "--no-validate", "--force")),
            new Flags("run sim", Map.of("--profile", "h100x8-nvlink"), List.of()),
            new Flags("sweep", Map.of("--devices", "2", "--profile", "h100x8-nvlink"), List.of()));

    static List<HostileCase> all() {
        List<HostileCase> cases = new ArrayList<>();
        for (Flags f : COMMANDS) {
            f.valued().forEach((flag, v) -> {
                cases.add(CommandLines.on(f.command(), "flags", flag + " twice, one value", Expect.REFUSE,
                        List.of(flag, v, flag, v), flag));
                cases.add(CommandLines.on(f.command(), "flags", flag + " twice, two values", Expect.REFUSE,
                        List.of(flag, v, flag + "=" + v + "0"), flag));
                cases.add(CommandLines.on(f.command(), "flags", flag + "= with nothing", Expect.REFUSE,
                        List.of(flag + "="), flag));
                cases.add(CommandLines.on(f.command(), "flags", flag + " with no value at the end", Expect.REFUSE,
                        List.of(flag), flag));
            });
            for (String s : f.switches()) {
                cases.add(CommandLines.on(f.command(), "flags", s + " twice", Expect.REFUSE, List.of(s, s), s));
                cases.add(CommandLines.on(f.command(), "flags", s + "=yes", Expect.REFUSE, List.of(s + "=yes"), s));
            }
            cases.addAll(common(f.command()));
        }
        cases.addAll(sweepLists());
        return cases;
    }

    /** What every command that takes a fusion must refuse, or accept as a control. */
    private static List<HostileCase> common(String command) {
        List<HostileCase> cases = new ArrayList<>();
        cases.add(CommandLines.on(command, "flags", "an unknown flag", Expect.REFUSE, List.of("--devicez", "2"),
                "--devicez"));
        cases.add(CommandLines.on(command, "flags", "a flag in capitals", Expect.REFUSE, List.of("--DEVICES", "2"),
                "--DEVICES"));
        cases.add(CommandLines.on(command, "flags", "a flag with a full-width dash", Expect.REFUSE,
                List.of("\uff0d\uff0ddevices", "2"), "devices"));
        cases.add(CommandLines.on(command, "flags", "a flag with ESC in it", Expect.REFUSE,
                List.of("--dev\u001b[2Jices", "2"), "--dev"));
        if (command.equals("dump")) return cases;
        cases.add(CommandLines.on(command, "flags", "--set M twice, one value", Expect.REFUSE,
                List.of("--set", "M=4", "--set", "M=4"), "M"));
        cases.add(CommandLines.on(command, "flags", "--set M twice, two values", Expect.REFUSE,
                List.of("--set", "M=4", "--set", "M=2"), "M"));
        cases.add(CommandLines.on(command, "flags", "--set of a full-width symbol", Expect.REFUSE,
                List.of("--set", "\uff2d=4"), "--set"));
        cases.add(CommandLines.on(command, "flags", "--set M=4=4", Expect.REFUSE, List.of("--set", "M=4=4"), "M"));
        cases.add(CommandLines.on(command, "flags", "--set D (the devices)", Expect.REFUSE, List.of("--set", "D=2"),
                "D"));
        cases.add(CommandLines.on(command, "flags", "--set with ESC in the symbol", Expect.REFUSE,
                List.of("--set", "M\u001b[2J=4"), "--set"));
        if (command.startsWith("export") || command.equals("check")) return cases;
        cases.add(CommandLines.on(command, "flags", "--option of one key twice", Expect.REFUSE,
                List.of("--option", "numberOfStreams=2", "--option", "numberOfStreams=3"), "numberOfStreams"));
        cases.add(CommandLines.on(command, "flags", "--option of an unknown key", Expect.REFUSE,
                List.of("--option", "numberOfStreamz=2"), "numberOfStreamz"));
        cases.add(CommandLines.on(command, "flags", "--option with a full-width value", Expect.REFUSE,
                List.of("--option", "numberOfStreams=\uff12"), "numberOfStreams"));
        return cases;
    }

    /** {@code sweep --devices LIST} and {@code --vary KEY=V1,V2}: checked whole before the first point. */
    private static List<HostileCase> sweepLists() {
        List<HostileCase> cases = new ArrayList<>();
        for (String list : List.of(",", "2,,4", ",2", "2,", "2, 4", "2,\uff14", "2,16385", "2,0", "2,-1", "2;4", " ")) {
            cases.add(CommandLines.on("sweep", "flags", "--devices '" + Terminal.shown(list) + "'", Expect.REFUSE,
                    List.of("--devices", list), "--devices"));
        }
        cases.add(CommandLines.on("sweep", "flags", "--devices 2,4", Expect.ACCEPT, List.of("--devices", "2,4")));
        cases.add(CommandLines.on("sweep", "flags", "--devices 2,2", Expect.EITHER, List.of("--devices", "2,2"),
                "--devices"));
        for (String vary : List.of("bogus=1,2", "numberOfStreams=", "numberOfStreams=0,2", "numberOfStreams=\uff12",
                "=1,2", "numberOfStreams=1,,2", "allgather=p2p,magic", "numberOfStreams")) {
            cases.add(CommandLines.on("sweep", "flags", "--vary " + Terminal.shown(vary), Expect.REFUSE,
                    List.of("--vary", vary), "--vary"));
        }
        cases.add(CommandLines.on("sweep", "flags", "--vary of one key twice", Expect.REFUSE,
                List.of("--vary", "numberOfStreams=2,4", "--vary", "numberOfStreams=1,3"), "numberOfStreams"));
        cases.add(CommandLines.on("sweep", "flags", "--vary numberOfStreams=2,4", Expect.ACCEPT,
                List.of("--vary", "numberOfStreams=2,4")));
        return cases;
    }
}
