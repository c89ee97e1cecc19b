import Foundation

/// Reading memcheck's log in the valgrind tests.
///
/// Optimized Swift and memcheck's uninitialised-value reports: a multi-payload enum whose
/// largest payload ends in a field with spare bits (`InputEvent.Kind` and `DeviceEvent.Kind`
/// since a pen's `TabletEvent` became their largest payload) keeps its case number in the high
/// bits of that last byte. A smaller case (a device added, a touch) leaves the byte's low bits
/// as they were, and the optimized tag read compares the whole byte (`cmp $0xe0`): the outcome
/// depends only on the defined high bits, but memcheck, which tracks definedness per bit and
/// cannot prove that for an unsigned comparison, reports "Conditional jump or move depends on
/// uninitialised value(s)" in every function that switches on such an event (and in the
/// enum's outlined copy and destroy, `…KindOWOy`, `…KindOWOe`). Seen with valgrind 3.19 and
/// Swift 6.3 in release builds only.
enum ValgrindLog {
    /// memcheck's log as its blank-line separated blocks (reports, leak records, the header and
    /// the summaries), each as its lines without the `==PID==` prefix.
    static func blocks(_ log: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring] = []
        for line in log.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("==") else { continue }
            let text = line.drop(while: { $0 != " " }).dropFirst()
            if text.trimmingCharacters(in: .whitespaces).isEmpty {
                if !current.isEmpty { blocks.append(current.joined(separator: "\n")) }
                current = []
            } else {
                current.append(text)
            }
        }
        if !current.isEmpty { blocks.append(current.joined(separator: "\n")) }
        return blocks
    }

    /// memcheck's reports in `log`, each as its lines without the `==PID==` prefix.
    static func reports(_ log: String) -> [String] {
        // The header (Memcheck, Copyright, Command) and the summary are not reports.
        blocks(log).filter { $0.hasPrefix("Conditional jump") || $0.hasPrefix("Use of uninitialised")
            || $0.hasPrefix("Invalid") || $0.hasPrefix("Syscall param") || $0.hasPrefix("Mismatched")
            || $0.hasPrefix("Source and destination overlap") || $0.hasPrefix("Argument") }
    }

    /// Whether `report` is the false report above: an uninitialised value in a jump or a use,
    /// at a SeatKit function (Swift-mangled `$s…`) that reads the tag of an event enum. Any
    /// other report (an invalid access, a syscall given uninitialised bytes, one in C code) is not.
    static func isEnumTagRead(_ report: String) -> Bool {
        guard report.hasPrefix("Conditional jump or move depends on uninitialised")
                || report.hasPrefix("Use of uninitialised value") else { return false }
        let lines = report.split(separator: "\n")
        guard lines.count > 1 else { return false }
        let top = lines[1]
        return top.contains("$s7SeatKit") || top.contains("$s15SeatKitLibinput") || top.contains("$s13SeatKitReplay")
            || top.contains("$s8CSeatKit")
    }
}
