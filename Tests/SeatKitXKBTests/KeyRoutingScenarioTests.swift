import Testing
import SeatKit
import SeatKitXKB

/// Takes Super+Return before anyone else: a global "open a terminal" shortcut.
final class ShortcutFilter: InputFilter {
    var taken: [KeyEvent] = []
    func filterKey(_ event: KeyEvent, router: Router) -> FilterDecision {
        guard event.keysym == Keysym.named("Return"), event.modifiers.intersection(.commandRelevant) == .logo else {
            return .pass
        }
        taken.append(event)
        return .consume
    }
}

final class ConsumedKeySpy: InputSpy {
    var events: [(KeyState, Bool)] = []
    func observe(_ event: InputEvent, consumed: Bool, router: Router) {
        if case .key(_, let state) = event.kind { events.append((state, consumed)) }
    }
}

@Suite struct KeyRoutingScenarioTests {
    @Test func theFirstResponderReceivesTheTextOfEachLayout() throws {
        let keys = [Key.q, Key.w, Key.y, Key.z, Key.a, Key.m, Key.one, Key.semicolon]
        let expected = ["us": "qwyzam1;", "de": "qwzyam1ö", "fr": "azywq,&m", "ru": "йцняфь1ж"]
        for (layout, text) in expected {
            let scene = KeyboardScene(try keymap(layout, variant: layout == "fr" ? "azerty" : ""))
            scene.type(keys)
            #expect(scene.field.typedText == text, "\(layout)")
            #expect(scene.field.ups.count == keys.count)
        }
    }

    @Test func aKeyCommandTwoRespondersUpTheChainIsFoundAndItsReleaseGoesOnlyToTheRespondersThatSawThePress() throws {
        let scene = KeyboardScene(try keymap("us,ru"))
        scene.field.handlesKeys = false
        scene.frame.commands = [KeyCommand(keysym: Keysym.named("z"), modifiers: .control, action: "undo",
                                           matching: .layoutIndependent)]
        scene.keyboard.switchLayout(to: 1)
        scene.key(Key.leftCtrl, .pressed, at: 0)
        scene.key(Key.z, .pressed, at: 10)
        scene.key(Key.z, .released, at: 20)
        scene.key(Key.leftCtrl, .released, at: 30)
        #expect(scene.frame.performed == ["undo"])
        // The key walked field → panel before frame took it...
        #expect(scene.field.downs.map(\.keycode) == [Key.leftCtrl, Key.z])
        #expect(scene.panel.downs.map(\.keycode) == [Key.leftCtrl, Key.z])
        #expect(scene.field.downs.last?.keysym == Keysym.named("Cyrillic_ya"))
        // ...and nobody sees half of it: field and panel saw z's keyDown, so they hear its
        // keyUp; frame performed the command instead and hears only Ctrl's.
        #expect(scene.field.ups.map(\.keycode) == [Key.z, Key.leftCtrl])
        #expect(scene.panel.ups.map(\.keycode) == [Key.z, Key.leftCtrl])
        #expect(scene.frame.ups.map(\.keycode) == [Key.leftCtrl])
    }

    @Test func aKeysymCommandFollowsTheLayoutAndALayoutIndependentOneTheKey() throws {
        let scene = KeyboardScene(try keymap("fr,us", variant: "azerty,"))
        scene.field.handlesKeys = false
        scene.frame.commands = [
            KeyCommand(keysym: Keysym.named("z"), modifiers: .control, action: "undo"),
            KeyCommand(keysym: Keysym.named("q"), modifiers: .control, action: "quit", matching: .layoutIndependent),
        ]
        scene.key(Key.leftCtrl, .pressed, at: 0)
        scene.type([Key.z], from: 10)    // types w on azerty: no undo
        scene.type([Key.w], from: 30)    // types z on azerty: undo
        scene.keyboard.switchLayout(to: 1)
        scene.type([Key.q], from: 50)    // q in us; in the first layout (azerty) it is a
        scene.type([Key.a], from: 70)    // a in us; in azerty q: quit
        #expect(scene.frame.performed == ["undo", "quit"])
    }

    @Test func aGlobalShortcutTakesItsPressAndReleaseBeforeTheClient() throws {
        let scene = KeyboardScene(try keymap("us"))
        let shortcut = ShortcutFilter()
        scene.router.addFilter(shortcut)
        scene.key(Key.leftMeta, .pressed, at: 0)
        scene.key(Key.enter, .pressed, at: 10)
        scene.key(Key.leftMeta, .released, at: 20)
        scene.key(Key.enter, .released, at: 30)   // released after Super: still the shortcut's
        scene.type([Key.enter], from: 40)
        #expect(shortcut.taken.count == 1)
        #expect(shortcut.taken.first?.modifiers == .logo)
        #expect(scene.field.downs.map(\.keycode) == [Key.leftMeta, Key.enter])
        #expect(scene.field.ups.map(\.keycode) == [Key.leftMeta, Key.enter])
        #expect(scene.field.downs.last?.text == "\r")
    }

    @Test func heldKeysRepeatOnTheRoutersClockUntilReleased() throws {
        let scene = KeyboardScene(try keymap("us"), keyRepeat: KeyRepeat(rate: 25, delay: .milliseconds(500)))
        scene.key(Key.a, .pressed, at: 0)
        scene.clock.advance(to: .milliseconds(599))
        #expect(scene.field.downs.map(\.time) == [.zero, .milliseconds(500), .milliseconds(540), .milliseconds(580)])
        #expect(scene.field.downs.dropFirst().allSatisfy { $0.state == .repeated && $0.text == "a" })
        // Shift pressed during the repeat does not stop it; it changes what it types.
        scene.key(Key.leftShift, .pressed, at: 600)
        scene.clock.advance(to: .milliseconds(630))
        #expect(scene.field.downs.last?.text == "A")
        #expect(scene.field.downs.last?.time == .milliseconds(620))
        scene.key(Key.a, .released, at: 640)
        let count = scene.field.downs.count
        scene.clock.advance(to: .milliseconds(5000))
        #expect(scene.field.downs.count == count)
        #expect(scene.clock.nextDeadline == nil)
    }

    @Test func movingTheFirstResponderStopsTheRepeat() throws {
        let scene = KeyboardScene(try keymap("us"), keyRepeat: KeyRepeat(rate: 10, delay: .milliseconds(200)))
        scene.key(Key.a, .pressed, at: 0)
        scene.clock.advance(to: .milliseconds(350))
        let panelSurface = try #require(scene.router.firstResponder?.parent)
        #expect(scene.router.becomeFirstResponder(panelSurface))
        scene.clock.advance(to: .milliseconds(1000))
        #expect(scene.field.downs.map(\.time) == [.zero, .milliseconds(200), .milliseconds(300)])
        #expect(scene.panel.downs.isEmpty)
        #expect(scene.clock.nextDeadline == nil)
    }

    @Test func aKeyboardGrabStartingWhileAKeyIsHeldStopsItsRepeatForTheGrabNeverSawThePress() throws {
        let scene = KeyboardScene(try keymap("us"), keyRepeat: KeyRepeat(rate: 10, delay: .milliseconds(200)))
        scene.key(Key.a, .pressed, at: 0)
        scene.clock.advance(to: .milliseconds(250))
        // A lock screen takes the keyboard, the first responder kept: A is still held.
        let lock = KeyRecordingGrab()
        scene.router.startKeyboardGrab(lock, focus: .keep)
        scene.clock.advance(to: .milliseconds(1000))
        #expect(lock.events.isEmpty, "the lock was sent repeats of a key it never saw pressed: \(lock.events)")
        #expect(scene.field.downs.map(\.time) == [.zero, .milliseconds(200)])
        #expect(scene.clock.nextDeadline == nil)
        // Its release reaches the lock; a key pressed under the lock repeats to it.
        scene.key(Key.a, .released, at: 1010)
        scene.key(Key.z, .pressed, at: 1020)
        scene.clock.advance(to: .milliseconds(1320))
        #expect(lock.events.map(\.state) == [.released, .pressed, .repeated, .repeated])
    }

    @Test func aKeyboardGrabEndingWhileAKeyIsHeldStopsItsRepeat() throws {
        let scene = KeyboardScene(try keymap("us"), keyRepeat: KeyRepeat(rate: 10, delay: .milliseconds(200)))
        let lock = KeyRecordingGrab()
        scene.router.startKeyboardGrab(lock, focus: .keep)
        scene.key(Key.a, .pressed, at: 0)
        scene.clock.advance(to: .milliseconds(250))
        #expect(lock.events.map(\.state) == [.pressed, .repeated])
        scene.router.endKeyboardGrab()
        scene.clock.advance(to: .milliseconds(1000))
        #expect(lock.events.count == 2)
        #expect(scene.field.downs.isEmpty)
        #expect(scene.clock.nextDeadline == nil)
    }

    @Test func pressingAnotherKeyMovesTheRepeatToIt() throws {
        let scene = KeyboardScene(try keymap("de"), keyRepeat: KeyRepeat(rate: 10, delay: .milliseconds(200)))
        scene.key(Key.a, .pressed, at: 0)
        scene.key(Key.z, .pressed, at: 100)
        scene.clock.advance(to: .milliseconds(400))
        #expect(scene.field.downs.map(\.text) == ["a", "y", "y", "y"])
        #expect(scene.field.downs.map(\.time) == [.zero, .milliseconds(100), .milliseconds(300), .milliseconds(400)])
        scene.key(Key.a, .released, at: 410)
        scene.clock.advance(to: .milliseconds(500))
        #expect(scene.field.downs.count == 5)
    }

    @Test func typingQuicklyKeepsOneRepeatTimerAndTheLastKeyRepeatsOnTime() throws {
        // The timer of a released key is left armed rather than cancelled; the next press
        // reuses it, and it re-arms for the key actually held when it fires early.
        let scene = KeyboardScene(try keymap("us"), keyRepeat: KeyRepeat(rate: 10, delay: .milliseconds(200)))
        let letters = [Key.q, Key.w, Key.e, Key.a, Key.z, Key.m]
        var ms: Int64 = 0
        for key in letters {
            scene.key(key, .pressed, at: ms)
            scene.key(key, .released, at: ms + 10)
            ms += 30
            #expect(scene.clock.pendingTimerCount == 1)
        }
        scene.key(Key.y, .pressed, at: ms)   // held: first repeat due at ms + 200
        scene.clock.advance(to: .milliseconds(ms + 350))
        #expect(scene.field.downs.filter { $0.state == .repeated }.map(\.time)
                == [.milliseconds(ms + 200), .milliseconds(ms + 300)])
        scene.key(Key.y, .released, at: ms + 360)
        scene.clock.advance(to: .milliseconds(ms + 2000))
        #expect(scene.field.downs.filter { $0.state == .repeated }.count == 2)
        #expect(scene.clock.pendingTimerCount == 0)
    }

    @Test func aKeyboardReplacedAsInterpreterForgetsTheRouterAndStopsRepeating() throws {
        let scene = KeyboardScene(try keymap("us"), keyRepeat: KeyRepeat(rate: 10, delay: .milliseconds(200)))
        scene.key(Key.a, .pressed, at: 0)
        #expect(scene.keyboard.router === scene.router)
        scene.router.keyInterpreter = Keyboard(keymap: try keymap("us"))
        #expect(scene.keyboard.router == nil)
        scene.clock.advance(to: .milliseconds(1000))
        #expect(scene.field.downs.count == 1)
        #expect(scene.clock.pendingTimerCount == 0)
    }

    @Test func aKeyboardOutlivingItsRouterForgetsIt() throws {
        let keyboard = Keyboard(keymap: try keymap("us"))
        do {
            let router = Router(clock: VirtualClock())
            keyboard.attach(to: router)
            router.inject(InputEvent(time: .zero, .key(keycode: Key.a, state: .pressed)))
            #expect(keyboard.router === router)
        }
        #expect(keyboard.router == nil)
        var event = KeyEvent(time: .milliseconds(5), keycode: Key.a, state: .released)
        keyboard.interpret(&event)   // no router to repeat into: nothing happens
        #expect(keyboard.pressedKeys.isEmpty)
    }

    @Test func aSwallowedKeysRepeatsStaySwallowed() throws {
        let scene = KeyboardScene(try keymap("us"), keyRepeat: KeyRepeat(rate: 20, delay: .milliseconds(300)))
        scene.router.addFilter(ShortcutFilter())
        let spy = ConsumedKeySpy()
        scene.router.addSpy(spy)
        scene.key(Key.leftMeta, .pressed, at: 0)
        scene.key(Key.enter, .pressed, at: 10)
        scene.clock.advance(to: .milliseconds(500))
        scene.key(Key.enter, .released, at: 500)
        scene.key(Key.leftMeta, .released, at: 510)
        #expect(scene.field.downs.map(\.keycode) == [Key.leftMeta])
        #expect(scene.field.ups.map(\.keycode) == [Key.leftMeta])
        // Repeats at 310, 360, 410, 460 happened and were all taken.
        let repeats = spy.events.filter { $0.0 == .repeated }
        #expect(repeats.count == 4)
        #expect(repeats.allSatisfy { $0.1 })
    }

    @Test func aRepeatOfATakenCommandKeyDoesNotReachTheChain() throws {
        let scene = KeyboardScene(try keymap("us"), keyRepeat: KeyRepeat(rate: 20, delay: .milliseconds(300)))
        scene.field.commands = [KeyCommand(keysym: Keysym.named("s"), modifiers: .control, action: "save")]
        let spy = ConsumedKeySpy()
        scene.router.addSpy(spy)
        scene.key(Key.leftCtrl, .pressed, at: 0)
        scene.key(31, .pressed, at: 10)      // KEY_S
        scene.clock.advance(to: .milliseconds(1000))
        scene.key(31, .released, at: 1000)
        #expect(scene.field.performed == ["save"])
        #expect(scene.field.downs.map(\.keycode) == [Key.leftCtrl])
        #expect(scene.field.ups.isEmpty)
        // Repeats from 310 ms to 960 ms, every 50 ms: all generated, all taken.
        let repeats = spy.events.filter { $0.0 == .repeated }
        #expect(repeats.count == 14)
        #expect(repeats.allSatisfy { $0.1 })
    }

    @Test func aDeadKeyComposesForTheFirstResponderWhichSeesTheComposeState() throws {
        let scene = KeyboardScene(try keymap("de"), compose: try ComposeTable(locale: "en_US.UTF-8"))
        var statuses: [ComposeStatus] = []
        scene.field.onKeyDown = { _, context in
            if let keyboard = context.router.keyInterpreter as? Keyboard { statuses.append(keyboard.composeStatus) }
        }
        scene.type([Key.equal, Key.e, Key.a])
        #expect(scene.field.downs.map(\.keysym) == [Keysym.named("dead_acute"), Keysym.named("eacute"), Keysym.named("a")])
        #expect(scene.field.typedText == "éa")
        #expect(statuses == [.composing, .composed, .nothing])
    }

    @Test func theModifierMasksOfEachEventFollowTheKeys() throws {
        let scene = KeyboardScene(try keymap("us,ru", options: "grp:alt_shift_toggle"))
        scene.key(Key.leftAlt, .pressed, at: 0)
        scene.key(Key.leftShift, .pressed, at: 10)
        scene.key(Key.leftShift, .released, at: 20)
        scene.key(Key.leftAlt, .released, at: 30)
        scene.type([Key.q], from: 40)
        #expect(scene.field.downs.last?.modifierMasks == ModifierMasks(group: 1))
        #expect(scene.field.downs.last?.text == "й")
        #expect(scene.field.ups.first?.modifierMasks.group == 1)
    }
}

/// Lets a key's press through but takes its repeats: a kiosk that allows no auto-repeat.
final class NoRepeatFilter: InputFilter {
    func filterKey(_ event: KeyEvent, router: Router) -> FilterDecision {
        event.state == .repeated ? .consume : .pass
    }
}

@Suite struct RepeatFilterScenarioTests {
    @Test func aFilterTakingOnlyRepeatsLeavesTheReleaseToTheClientThatSawThePress() throws {
        let scene = KeyboardScene(try keymap("us"), keyRepeat: KeyRepeat(rate: 20, delay: .milliseconds(300)))
        scene.router.addFilter(NoRepeatFilter())
        scene.key(Key.a, .pressed, at: 0)
        scene.clock.advance(to: .milliseconds(500))
        scene.key(Key.a, .released, at: 500)
        #expect(scene.field.downs.map(\.state) == [.pressed])
        #expect(scene.field.ups.map(\.keycode) == [Key.a])
    }
}

@Suite struct KeyCommandScenarioTests {
    @Test func undoAndRedoStayApartAndCapsLockDoesNotMatter() throws {
        let scene = KeyboardScene(try keymap("de"))
        scene.field.commands = [
            KeyCommand(keysym: Keysym.named("z"), modifiers: .control, action: "undo"),
            KeyCommand(keysym: Keysym.named("z"), modifiers: [.control, .shift], action: "redo"),
        ]
        scene.key(Key.leftCtrl, .pressed, at: 0)
        scene.type([Key.y], from: 10)                 // z on de
        scene.key(Key.leftShift, .pressed, at: 30)
        scene.type([Key.y], from: 40)
        scene.key(Key.leftShift, .released, at: 60)
        scene.key(Key.leftCtrl, .released, at: 70)
        scene.type([Key.capsLock], from: 80)
        scene.key(Key.leftCtrl, .pressed, at: 100)
        scene.type([Key.y], from: 110)
        #expect(scene.field.performed == ["undo", "redo", "undo"])
    }

    @Test func configuredKeysymNamesAreLookedUpWithoutTrapping() {
        #expect(Keysym.lookup("XF86AudioRaiseVolume") == 0x1008ff13)
        #expect(Keysym.lookup("NotAKeysym") == nil)
    }
}

/// A keyboard grab that takes every key and records it.
private final class KeyRecordingGrab: KeyboardGrab {
    var events: [KeyEvent] = []
    func key(_ event: KeyEvent, router: Router) { events.append(event) }
}
