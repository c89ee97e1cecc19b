import RoutingWorkloads
import SeatKit
import SeatKitXKB
import ProcessCounters
import ThreadAllocations

// Issue 4: a key press to text at the focused responder, against the same xkbcommon calls
// made directly. Three sides, interleaved sample by sample on the same key sequence:
// - SeatKit: `router.inject` of the key, SeatKitXKB's Keyboard as key interpreter, the chain,
//   and a responder that reads the text;
// - Keyboard alone: `Keyboard.interpret` on a KeyEvent, no router (where the time goes);
// - xkbcommon: the bare C calls from `XKBDirect`.

/// The three sides, each a function that runs the key sequence `repeats` times.
struct KeyTextSides {
    static let repeats = 200
    let eventsPerPass = Double(KeyTextScene.sequence.count * repeats)
    let routed: () -> Void
    let interpreted: () -> Void
    let direct: () -> Void
    /// Bytes of text the routed side's responder has read so far.
    let textBytes: () -> Int

    init() {
        let scene: KeyTextScene
        do { scene = try KeyTextScene() } catch { fatalError("us keymap: \(error)") }
        let interpreterOnly: Keyboard
        do { interpreterOnly = Keyboard(keymap: try Keymap(names: KeymapNames(layout: "us"))) } catch { fatalError("\(error)") }
        let sequence = KeyTextScene.sequence
        let length = sequence.count
        let repeats = Self.repeats
        routed = {
            var i = 0
            while i < length * repeats { scene.routeKey(i); i += 1 }
        }
        interpreted = {
            var i = 0
            var bytes = 0
            while i < length * repeats {
                let key = sequence[i % length]
                var event = KeyEvent(time: .zero, keycode: key.keycode, state: key.pressed ? .pressed : .released)
                interpreterOnly.interpret(&event)
                bytes &+= event.text.utf8.count
                i += 1
            }
            sink &+= bytes
        }
        direct = { sink &+= Int(truncatingIfNeeded: scene.runDirect(times: repeats)) }
        textBytes = { scene.text.bytes }
    }
}

/// One warm pass per side, then one between callgrind client requests named after the side
/// and the key events in the pass ("routed 22800", "interpreted …", "direct …"), for
/// callgrind-keys.sh.
func countKeyInstructions() {
    precondition(running_under_valgrind() != 0, "run through Benchmarks/callgrind-keys.sh")
    let sides = KeyTextSides()
    for (name, side) in [("routed", sides.routed), ("interpreted", sides.interpreted), ("direct", sides.direct)] {
        side()
        callgrind_begin()
        side()
        callgrind_end("\(name) \(Int(sides.eventsPerPass))")
    }
}

func printKeyTextTable(rounds: Int) {
    let keyText = KeyTextSides()
    let routed = keyText.routed, interpreted = keyText.interpreted, direct = keyText.direct
    let sequence = KeyTextScene.sequence
    let length = sequence.count
    let repeats = KeyTextSides.repeats
    let eventsPerSample = keyText.eventsPerPass

    // Warm all three.
    routed(); interpreted(); direct()
    var samples: [[Double]] = [[], [], []]
    var allocations: UInt64 = 0
    let sides: [() -> Void] = [routed, interpreted, direct]
    for round in 0..<rounds {
        // Rotate which side goes first.
        for k in 0..<3 {
            let side = (round + k) % 3
            let before = seatkit_thread_allocations()
            let start = nanoseconds()
            sides[side]()
            let elapsed = nanoseconds() - start
            if side == 0 { allocations += seatkit_thread_allocations() - before }
            samples[side].append(Double(elapsed) / eventsPerSample)
        }
    }
    let seatKit = median(samples[0]), keyboard = median(samples[1]), raw = median(samples[2])
    let presses = sequence.filter(\.pressed).count
    print("Key sequence: \(length) events (\(presses) presses, \(length - presses) releases: \"The quick brown fox jumps over the lazy dog. 0123456789\" and Return, Shift for the capital), us keymap; \(rounds) samples of \(repeats) × the sequence per side, interleaved; medians.\n")
    print("| side | ns/key event | ÷ xkbcommon direct | allocations/key event once warm |")
    print("|---|---:|---:|---:|")
    print("| SeatKit: router.inject → Keyboard (SeatKitXKB) → chain → responder reads the text | \(format(seatKit)) | \(format(seatKit / raw))× | \(Double(allocations) / (eventsPerSample * Double(rounds))) |")
    print("| Keyboard.interpret alone (no router) | \(format(keyboard)) | \(format(keyboard / raw))× | – |")
    print("| xkbcommon direct, C: get_one_sym + get_utf8 + update_key (press), update_key (release) | \(format(raw)) | 1× | – |")
    print("\nText bytes typed per pass: \(keyText.textBytes() / max(1, rounds * repeats + repeats)) (checksum).")
}
