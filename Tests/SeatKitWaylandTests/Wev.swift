/// Reading wev's own output: one entry per event, continuation lines (wev prints a key's
/// keysym and text on the next line) joined to their event.
struct WevLog {
    let events: [String]

    init(_ text: Substring) {
        var events: [String] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix(" "), !events.isEmpty {
                events[events.count - 1] += " " + line.trimmingCharacters(in: .whitespaces)
            } else {
                events.append(String(line))
            }
        }
        self.events = events
    }

    /// Events of `interface` (e.g. "wl_touch"), optionally only `event` ("down").
    func events(_ interface: String, _ event: String? = nil) -> [String] {
        events.filter { line in
            guard let close = line.firstIndex(of: "]") else { return false }
            let header = line[..<close]
            guard header.hasSuffix(" " + interface) else { return false }
            guard let event else { return true }
            return line[line.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix(event + ":")
                || line[line.index(after: close)...].trimmingCharacters(in: .whitespaces) == event
        }
    }

    /// The `time:` (milliseconds) of an event line.
    static func time(of event: String) -> Int? {
        guard let range = event.range(of: "time: ") else { return nil }
        return Int(event[range.upperBound...].prefix { $0.isNumber })
    }

    /// Every input event wev printed: pointer, keyboard and touch events except the keymap
    /// and repeat info a keyboard gets when it is created.
    var inputEvents: [String] {
        (events("wl_pointer") + events("wl_touch") + events("wl_keyboard"))
            .filter { !$0.contains("] keymap:") && !$0.contains("] repeat_info:") }
    }
}

import Foundation

/// JSON lines for the kiosk's scripted input source.
enum Script {
    static func move(_ x: Double, _ y: Double) -> String { #"{"type": "pointer-motion-absolute", "device": 2, "x": \#(x), "y": \#(y)}"# }
    static func click(_ button: Int = 272) -> [String] {
        [#"{"type": "button", "device": 2, "button": \#(button), "state": "pressed"}"#,
         #"{"type": "button", "device": 2, "button": \#(button), "state": "released"}"#]
    }
    static func scroll(vertical: Double, v120: Double) -> String {
        #"{"type": "axis", "device": 2, "source": "wheel", "vertical": \#(vertical), "vertical120": \#(v120)}"#
    }
    static func tap(_ x: Double, _ y: Double, id: Int = 0) -> [String] {
        [#"{"type": "touch-down", "device": 3, "id": \#(id), "x": \#(x), "y": \#(y)}"#, #"{"type": "touch-frame", "device": 3}"#,
         #"{"type": "touch-up", "device": 3, "id": \#(id)}"#, #"{"type": "touch-frame", "device": 3}"#]
    }
    static func touchDown(_ x: Double, _ y: Double, id: Int = 0) -> [String] {
        [#"{"type": "touch-down", "device": 3, "id": \#(id), "x": \#(x), "y": \#(y)}"#, #"{"type": "touch-frame", "device": 3}"#]
    }
    static func touchMove(_ x: Double, _ y: Double, id: Int = 0) -> [String] {
        [#"{"type": "touch-motion", "device": 3, "id": \#(id), "x": \#(x), "y": \#(y)}"#, #"{"type": "touch-frame", "device": 3}"#]
    }
    static func touchUp(id: Int = 0) -> [String] {
        [#"{"type": "touch-up", "device": 3, "id": \#(id)}"#, #"{"type": "touch-frame", "device": 3}"#]
    }
    /// Press and release of evdev keys (KEY_A is 30).
    static func type(_ keys: [Int]) -> [String] {
        keys.flatMap { key in
            [#"{"type": "key", "device": 1, "key": \#(key), "state": "pressed"}"#,
             #"{"type": "key", "device": 1, "key": \#(key), "state": "released"}"#]
        }
    }
}
