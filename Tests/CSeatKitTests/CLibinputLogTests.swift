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
    }
}
