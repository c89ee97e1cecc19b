import CSeatKitSupport
import SeatKit

// The trace: every routing decision, as text or as JSON.

@_cdecl("seatkit_router_set_trace_enabled")
public func seatkit_router_set_trace_enabled(_ router: OpaquePointer?, _ enabled: Bool) {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return }
    if enabled {
        if r.traceLog == nil {
            let log = TraceLog()
            r.traceLog = log
            r.router.trace = log
        }
    } else {
        r.traceLog = nil
        r.router.trace = nil
    }
}

@_cdecl("seatkit_router_get_trace_text")
public func seatkit_router_get_trace_text(_ router: OpaquePointer?) -> UnsafeMutablePointer<CChar>? {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return nil }
    let lines = r.traceLog?.lines ?? []
    return CCalls.mallocString(lines.map { $0 + "\n" }.joined())
}

@_cdecl("seatkit_router_get_trace_json")
public func seatkit_router_get_trace_json(_ router: OpaquePointer?) -> UnsafeMutablePointer<CChar>? {
    guard let r = live(router, .router, as: CRouter.self, #function) else { return nil }
    return CCalls.mallocString(TraceJSON.encode(r.traceLog?.records ?? []))
}

@_cdecl("seatkit_router_clear_trace")
public func seatkit_router_clear_trace(_ router: OpaquePointer?) {
    live(router, .router, as: CRouter.self, #function)?.traceLog?.removeAll()
}

/// The JSON shape of `seatkit replay --format json`: one object per input event with the
/// decisions that followed it.
enum TraceJSON {
    static func encode(_ records: [TraceRecord]) -> String {
        var groups: [(event: InputEvent, decisions: [TraceRecord])] = []
        for record in records {
            if case .received(let e) = record {
                groups.append((e, []))
            } else if !groups.isEmpty {
                groups[groups.count - 1].decisions.append(record)
            }
        }
        var out = "["
        for (i, group) in groups.enumerated() {
            let decisions = group.decisions.map { string(String($0.description.drop { $0 == " " })) }.joined(separator: ",")
            out += "\n{\"time_us\":\(group.event.time.microseconds),\"device\":\(group.event.device.rawValue),"
            out += "\"kind\":\(string(group.event.kind.name)),\"event\":\(string(group.event.traceDescription)),"
            out += "\"routing\":[\(decisions)]}"
            if i + 1 < groups.count { out += "," }
        }
        return out + (groups.isEmpty ? "]\n" : "\n]\n")
    }

    static func string(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
