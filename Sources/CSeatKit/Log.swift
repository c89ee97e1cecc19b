import CSeatKitSupport

/// The log of seatkit_log_init (kept in C: the callback takes a va_list). Misuse from C is
/// refused and reported here, never trapped.
enum Log {
    static func error(_ message: @autoclosure () -> String) { write(SEATKIT_ERROR, message) }
    static func info(_ message: @autoclosure () -> String) { write(SEATKIT_INFO, message) }
    static func debug(_ message: @autoclosure () -> String) { write(SEATKIT_DEBUG, message) }

    private static func write(_ importance: seatkit_log_importance, _ message: () -> String) {
        guard importance.rawValue <= CCalls.logVerbosity().rawValue else { return }
        CCalls.log(importance, message())
    }

    /// "seatkit_surface_set_frame" from `#function` ("seatkit_surface_set_frame(_:_:)").
    static func name(_ function: StaticString) -> Substring {
        let text = "\(function)"
        return text.prefix { $0 != "(" }
    }
}
