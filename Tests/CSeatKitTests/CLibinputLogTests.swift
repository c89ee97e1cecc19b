import CSeatKitSupport
import Foundation
import Testing

extension TheProcessWideCLog {
    /// libinput's own log lines reach the C API's log (seatkit_log_init) as "libinput: ...":
    /// its errors at the default verbosity (its info lines at SEATKIT_INFO: the wlroots kiosk's
    /// --verbose, WlrootsKioskTests). Before, a context made through the C API dropped them
    /// all, and a device libinput refused left no trace in the compositor's log.
    @Suite struct CLibinputLogTests {
        init() {
            forgetLoggedLines()
            seatkit_log_init(SEATKIT_ERROR, captureLog)
        }

        static func libinputLines() -> [String] { loggedLines.filter { $0.hasPrefix("libinput: ") } }

        /// A path context over `path`: nil when SeatKit refused it (libinput could not add it).
        static func context(over path: String) throws -> OpaquePointer? {
            let made = seatkit_router_create_virtual(0)
            let router = try #require(made)
            defer { seatkit_router_destroy(router) }
            let context = path.withCString { p -> OpaquePointer? in
                var paths: [UnsafePointer<CChar>?] = [p]
                return seatkit_libinput_create_path(router, &paths, 1, nil, nil)
            }
            return context
        }

        @Test func libinputsErrorsReachTheLogAtTheDefaultVerbosity() throws {
            let context = try Self.context(over: "/nonexistent/seatkit-event0")
            #expect(context == nil)
            let lines = Self.libinputLines()
            #expect(lines.contains { $0.contains("/nonexistent/seatkit-event0") }, "\(loggedLines)")
            #expect(!lines.contains { $0.hasSuffix("\n") }, "libinput's newline is not kept: \(lines)")
        }

        /// A line libinput logs after its context was made (a device added later that it
        /// cannot open) reaches the log the same way: "libinput: " and the message, no
        /// trailing newline, once. The context's own handler formats it in C (no Swift String
        /// per line, issue 25, fifteenth round).
        @Test func aDeviceAddedLaterThatLibinputRefusesIsLoggedOnceWithoutItsNewline() throws {
            let made = seatkit_router_create_virtual(0)
            let router = try #require(made)
            defer { seatkit_router_destroy(router) }
            let context = try #require(seatkit_libinput_create_path(router, nil, 0, nil, nil) as OpaquePointer?)
            defer { seatkit_libinput_destroy(context) }
            forgetLoggedLines()
            #expect(!(seatkit_libinput_add_device(context, "/nonexistent/seatkit-event1") as Bool))
            let lines = Self.libinputLines().filter { $0.contains("/nonexistent/seatkit-event1") }
            #expect(lines.count == 1, "\(loggedLines)")
            #expect(lines.allSatisfy { !$0.hasSuffix("\n") && !$0.hasSuffix("\r") }, "\(lines)")
        }
    }
}
