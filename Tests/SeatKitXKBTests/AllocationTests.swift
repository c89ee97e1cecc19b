import Testing
import SeatKit
import SeatKitXKB
import AllocationCounter

@Suite struct AllocationTests {
    private func allocations(_ body: () -> Void) -> UInt64 {
        let before = seatkit_thread_allocations()
        body()
        return seatkit_thread_allocations() - before
    }

    private let keys = [Key.q, Key.w, Key.e, Key.a, Key.z, Key.semicolon, Key.one, Key.seven]

    @Test func interpretingKeysAllocatesNothingOnceWarm() throws {
        let keyboard = Keyboard(keymap: try keymap("de"), compose: try ComposeTable(locale: "en_US.UTF-8"))
        var event = KeyEvent(time: .zero, keycode: 0, state: .pressed)
        var measured: UInt64 = 0
        var typed = 0
        // Only the interpreter is measured: the loop's own bookkeeping allocates in debug builds.
        func interpret(_ keycode: UInt32, _ state: KeyState) {
            event.keycode = keycode
            event.state = state
            let before = seatkit_thread_allocations()
            keyboard.interpret(&event)
            measured += seatkit_thread_allocations() - before
            if !event.text.isEmpty { typed += 1 }
        }
        let modifiers = [Key.leftShift, Key.rightAlt]
        let keyStates: [KeyState] = [.pressed, .repeated, .released]
        let run = {
            for modifier in modifiers {
                interpret(modifier, .pressed)
                for key in self.keys {
                    for state in keyStates { interpret(key, state) }
                }
                interpret(modifier, .released)
            }
            // A dead key and the letter it composes with.
            interpret(Key.equal, .pressed)
            interpret(Key.equal, .released)
            interpret(Key.e, .pressed)
            #expect(event.text == "é")
            interpret(Key.e, .released)
        }
        run()
        measured = 0
        typed = 0
        run()
        #expect(measured == 0)
        // Every Shift level of the 8 keys types, pressed and repeated, and so does the
        // composed é; some AltGr levels of de are dead keys and type nothing.
        #expect(typed >= 8 * 2 + 1)
    }

    @Test func routingKeysAndTheirRepeatsAllocatesNothingOnceWarm() throws {
        let scene = KeyboardScene(try keymap("us"), keyRepeat: KeyRepeat(rate: 50, delay: .milliseconds(100)))
        scene.field.downs.reserveCapacity(4096)
        scene.field.ups.reserveCapacity(4096)
        var t: Int64 = 0
        var measured: UInt64 = 0
        let run = {
            for key in self.keys {
                let before = seatkit_thread_allocations()
                scene.key(key, .pressed, at: t)
                scene.clock.advance(to: .milliseconds(t + 150))   // the delay and three repeats
                scene.key(key, .released, at: t + 155)
                measured += seatkit_thread_allocations() - before
                t += 200
            }
        }
        run()
        measured = 0
        let before = scene.field.downs.count
        run()
        #expect(measured == 0)
        // Each key: its press and repeats at +100, +120 and +140.
        #expect(scene.field.downs.count - before == keys.count * 4)
        #expect(scene.field.downs.suffix(4).map(\.state) == [.pressed, .repeated, .repeated, .repeated])
    }
}
