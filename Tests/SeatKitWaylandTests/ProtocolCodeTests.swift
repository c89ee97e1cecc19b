import Foundation
import Testing

@Suite struct ProtocolCodeTests {
    /// The committed C code must be exactly what protocols/generate.sh makes from the system's
    /// XML with the system's wayland-scanner.
    @Test func committedProtocolCodeIsWhatTheScriptGenerates() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let script = root.appendingPathComponent("protocols/generate.sh").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script, "--check"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "generate.sh --check: \(output)")
        #expect(output.contains("up to date"))
    }
}
