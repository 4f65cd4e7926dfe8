package org.hostir.studio.tests.export;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The calls of an nvFuser C++ test that define and schedule a fusion and run it, in order, with variable names
 * replaced by their order of definition ({@code v0}, {@code v1}): what "the same test, names and formatting aside"
 * means for the export golden tests. Comments are dropped first. Calls outside this vocabulary (input data,
 * checks) are not compared.
 */
final class CallSequence {
    private static final Pattern CALL = Pattern.compile(String.join("|",
            "(?<def>\\w+)\\s*=\\s*makeContigTensor\\((?<rank>[^)]*)\\)",
            "(?<out>\\w+)\\s*=\\s*(?<op>set|permute|add|sub|mul|div|sum|max|broadcast|matmul|linear)"
                    + "\\((?<args>[^;]*)\\)\\s*;",
            "fusion->(?<io>addInput|addOutput)\\((?<iov>\\w+)\\)",
            "(?<all>createForNumDevices)",
            "DeviceMesh\\s+\\w+\\((?<ids>\\{[^}]*\\})\\)",
            "(?<meshed>\\w+)->setDeviceMesh\\(",
            "(?<par>\\w+)->axis\\((?<axis>\\d+)\\)->parallelize\\(ParallelType::(?<type>\\w+)\\)",
            "(?<exec>MultiDeviceExecutor)\\s+\\w+\\(",
            "\\.(?<run>runWithInput)\\("));
    private static final Pattern WORD = Pattern.compile("[A-Za-z_]\\w*");

    private CallSequence() {}

    static List<String> of(String cpp) {
        String code = cpp.replaceAll("//[^\\n]*", "");
        Map<String, String> vars = new HashMap<>();
        List<String> out = new ArrayList<>();
        for (Matcher m = CALL.matcher(code); m.find(); ) {
            if (m.group("def") != null) {
                out.add(define(vars, m.group("def")) + " = makeContigTensor(" + m.group("rank").strip() + ")");
            } else if (m.group("out") != null) {
                String args = rename(vars, m.group("args"));
                out.add(define(vars, m.group("out")) + " = " + m.group("op") + "(" + args + ")");
            } else if (m.group("io") != null) {
                out.add(m.group("io") + "(" + vars.getOrDefault(m.group("iov"), m.group("iov")) + ")");
            } else if (m.group("all") != null) {
                out.add("mesh(all devices)");
            } else if (m.group("ids") != null) {
                out.add("mesh(" + m.group("ids").replaceAll("\\s+", "") + ")");
            } else if (m.group("meshed") != null) {
                out.add("setDeviceMesh(" + vars.getOrDefault(m.group("meshed"), m.group("meshed")) + ")");
            } else if (m.group("par") != null) {
                out.add("parallelize(" + vars.getOrDefault(m.group("par"), m.group("par")) + ", " + m.group("axis")
                        + ", " + m.group("type") + ")");
            } else {
                out.add(m.group("exec") != null ? "MultiDeviceExecutor" : "runWithInput");
            }
        }
        return out;
    }

    private static String define(Map<String, String> vars, String name) {
        String v = "v" + vars.size();
        vars.put(name, v);
        return v;
    }

    private static String rename(Map<String, String> vars, String args) {
        Matcher m = WORD.matcher(args.replaceAll("\\s+", ""));
        StringBuilder out = new StringBuilder();
        while (m.find()) m.appendReplacement(out, vars.getOrDefault(m.group(), m.group()));
        m.appendTail(out);
        return out.toString();
    }
}
