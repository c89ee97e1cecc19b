import SeatKit

// A fault script: a list of steps a compositor and its devices could perform on a router,
// generated from a seed, replayed by `FaultScriptWorld` (FaultScriptSoakTests.swift) against
// a reference model. Steps name surfaces, outputs, recognizers and filters by small indices,
// so that any sub-list of a script is still a script: a step whose subject does not exist
// (or whose edit would be illegal, such as a cycle) does nothing. That is what lets a failing
// script be shrunk by deleting steps.
//
// Every step prints as the Swift expression that builds it, so a minimal script can be pasted
// into a test:
//
//     let script: [FaultScript.Step] = [
//         .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: false),
//         .add(1, to: .root(0), at: 0, frame: R(10, 10, 300, 300), focusable: true),
//         .touch([.down(1, 50, 50)]),
//         .reparent(1, to: .root(0), at: 0),
//     ]
//     #expect(FaultScriptWorld.run(script) == nil)

/// A rectangle with integral coordinates, printed as `R(x, y, w, h)`.
struct R: Hashable, CustomStringConvertible {
    var x, y, w, h: Int
    init(_ x: Int, _ y: Int, _ w: Int, _ h: Int) {
        self.x = x
        self.y = y
        self.w = w
        self.h = h
    }
    var rect: SurfaceRect { SurfaceRect(x: Double(x), y: Double(y), width: Double(w), height: Double(h)) }
    var description: String { "R(\(x), \(y), \(w), \(h))" }
}

enum FaultScript {
    /// Where a surface is added or moved to.
    enum Parent: Hashable, CustomStringConvertible {
        /// The root surface of output `o` (the newest output object of that index, which may
        /// have been removed from the layout meanwhile).
        case root(Int)
        case surface(Int)
        var description: String {
            switch self {
            case .root(let o): return ".root(\(o))"
            case .surface(let s): return ".surface(\(s))"
            }
        }
    }

    /// One finger change inside a touch frame. Coordinates are in layout space.
    enum TouchOp: Hashable, CustomStringConvertible {
        case down(Int, Int, Int)
        case move(Int, Int, Int)
        case up(Int)
        var description: String {
            switch self {
            case let .down(id, x, y): return ".down(\(id), \(x), \(y))"
            case let .move(id, x, y): return ".move(\(id), \(x), \(y))"
            case let .up(id): return ".up(\(id))"
            }
        }
    }

    enum KeyOp: String, Hashable { case press, release, `repeat` }

    enum PadKind: String, Hashable { case swipe, pinch, hold }
    enum PadPhase: String, Hashable { case begin, update, end, cancel }

    /// Built-in recognizers the script attaches.
    enum Rec: String, Hashable {
        case tap, doubleTap, pan, pinch, longPress
        /// A tap with `delaysTouchesBegan`: touches are held back while it is possible.
        case delayingTap
    }

    enum Host: Hashable, CustomStringConvertible {
        case surface(Int)
        /// A global recognizer of output `o`.
        case output(Int)
        var description: String {
            switch self {
            case .surface(let s): return ".surface(\(s))"
            case .output(let o): return ".output(\(o))"
            }
        }
    }

    /// Whose first responder status a step asks for.
    enum Target: Hashable, CustomStringConvertible {
        case surface(Int)
        case root(Int)
        var description: String {
            switch self {
            case .surface(let s): return ".surface(\(s))"
            case .root(let o): return ".root(\(o))"
            }
        }
    }

    /// What a filter consumes while installed.
    enum FilterKind: String, Hashable { case touch, pointer, keys, all }

    /// Which device classes a lock-screen grab (one that forwards nothing) takes.
    enum LockKind: String, Hashable { case pointer, touch, keyboard, all }

    /// Which grab a step ends: the popup's (`router.endGrab(popup)`), the lock's
    /// (`router.endGrab(lock)`), or whatever holds one device class (`end…Grab()`).
    enum GrabEnd: String, Hashable { case popup, lock, pointer, touch, keyboard }
    /// A keyboard grab of its own (not the lock's): whether it forwards keys to the first
    /// responder, and whether it keeps focus or clears it (``KeyboardGrabFocus``).
    enum KeyGrabKind: String, Hashable, CaseIterable { case keep, clear, forwardKeep, forwardClear }

    /// A responder callback (or recognizer action) that runs an armed step from inside it.
    enum Callback: String, Hashable, CaseIterable {
        case began, moved, ended, cancelled, entered, left, become, resign, refine, keyDown
    }

    enum ArmSite: Hashable, CustomStringConvertible {
        /// Surface `s`'s responder, inside the callback.
        case surface(Int, Callback)
        /// Recognizer `r`'s target, at its next transition.
        case recognizer(Int)
        var description: String {
            switch self {
            case let .surface(s, c): return ".surface(\(s), .\(c.rawValue))"
            case let .recognizer(r): return ".recognizer(\(r))"
            }
        }
    }

    indirect enum Step: Hashable, CustomStringConvertible {
        /// Creates output `o` (a new object if the old one of that index was removed) and adds
        /// it to the layout; nothing if output `o` is in the layout.
        case addOutput(Int, x: Int, y: Int, w: Int, h: Int, rootFocusable: Bool)
        case removeOutput(Int)
        /// Adds surface `s` (created with `frame` the first time) to `parent`; nothing if `s`
        /// is attached (that is `reparent`).
        case add(Int, to: Parent, at: Int, frame: R, focusable: Bool)
        /// Moves attached surface `s` under another attached parent, possibly on another
        /// output, or restacks it: "moving is not removing".
        case reparent(Int, to: Parent, at: Int)
        case remove(Int)
        case bringToFront(Int)
        case setFrame(Int, R)
        case setHidden(Int, Bool)
        case setInputDisabled(Int, Bool)
        case setClips(Int, Bool)
        /// `nil`: the whole surface; `[]`: none.
        case setInputRegion(Int, [R]?)
        /// Touch events of one device frame, then the frame.
        case touch([TouchOp])
        /// The device cancels finger `id` (a palm), then the frame.
        case touchCancel(Int)
        case pointerBy(dx: Int, dy: Int)
        case pointerTo(x: Int, y: Int)
        /// Button 0x110 + `b`.
        case button(Int, pressed: Bool)
        case axis(Int)
        /// Key code 30 + `k`.
        case key(Int, KeyOp)
        case touchpad(PadKind, PadPhase, fingers: Int)
        /// Advances the virtual clock (timers fire: long presses begin, taps fail).
        case advance(ms: Int)
        /// Attaches a new recognizer `r` (nothing if `r` exists), optionally requiring
        /// recognizer `requireToFail` (always of a smaller index: no cycles) to fail.
        case addRecognizer(Int, Rec, on: Host, requireToFail: Int?)
        case removeRecognizer(Int)
        case becomeFirst(Target)
        case resignFirst
        /// `router.cancelTouches` for every touch.
        case cancelTouches
        case refreshPointer
        /// `router.refreshTouchLocations()`: still touches hear that their surfaces moved.
        case refreshTouches
        case addFilter(Int, FilterKind)
        case removeFilter(Int)
        /// Runs `step` from inside the next call of `site` (once).
        case arm(ArmSite, Step)
        /// `surface.isBelowParent` (a subsurface placed below its parent's own content).
        case setBelowParent(Int, Bool)
        /// `router.startPopupGrab` on surface `s` (nothing if `s` is not in the layout);
        /// with `closes`, its dismiss handler removes the popup, as a compositor would.
        case popupGrab(Int, closes: Bool)
        /// As `popupGrab`, nested in the innermost popup grab active (its `parent`), if any.
        case nestedPopupGrab(Int, closes: Bool)
        /// Starts the world's lock-screen grab (forwards nothing) for the given classes.
        case lockGrab(LockKind)
        /// Starts a keyboard grab of kind `k` (one object per kind; replaces the active one).
        case keyboardGrab(KeyGrabKind)
        case endGrab(GrabEnd)
        /// Announces touch device `d` (`DeviceID(1 + d)`), mapped to output `o`'s name or
        /// to none.
        case addDevice(Int, mappedTo: Int?)
        /// A touch frame from device `d` (`.touch` is device 0).
        case touchFrom(Int, [TouchOp])

        var description: String {
            switch self {
            case let .addOutput(o, x, y, w, h, f): return ".addOutput(\(o), x: \(x), y: \(y), w: \(w), h: \(h), rootFocusable: \(f))"
            case let .removeOutput(o): return ".removeOutput(\(o))"
            case let .add(s, p, i, r, f): return ".add(\(s), to: \(p), at: \(i), frame: \(r), focusable: \(f))"
            case let .reparent(s, p, i): return ".reparent(\(s), to: \(p), at: \(i))"
            case let .remove(s): return ".remove(\(s))"
            case let .bringToFront(s): return ".bringToFront(\(s))"
            case let .setFrame(s, r): return ".setFrame(\(s), \(r))"
            case let .setHidden(s, b): return ".setHidden(\(s), \(b))"
            case let .setInputDisabled(s, b): return ".setInputDisabled(\(s), \(b))"
            case let .setClips(s, b): return ".setClips(\(s), \(b))"
            case let .setInputRegion(s, r):
                return ".setInputRegion(\(s), \(r.map { "[" + $0.map(\.description).joined(separator: ", ") + "]" } ?? "nil"))"
            case let .touch(ops): return ".touch([" + ops.map(\.description).joined(separator: ", ") + "])"
            case let .touchCancel(id): return ".touchCancel(\(id))"
            case let .pointerBy(dx, dy): return ".pointerBy(dx: \(dx), dy: \(dy))"
            case let .pointerTo(x, y): return ".pointerTo(x: \(x), y: \(y))"
            case let .button(b, p): return ".button(\(b), pressed: \(p))"
            case let .axis(v): return ".axis(\(v))"
            case let .key(k, op): return ".key(\(k), .\(op.rawValue))"
            case let .touchpad(k, p, f): return ".touchpad(.\(k.rawValue), .\(p.rawValue), fingers: \(f))"
            case let .advance(ms): return ".advance(ms: \(ms))"
            case let .addRecognizer(r, kind, host, req):
                return ".addRecognizer(\(r), .\(kind.rawValue), on: \(host), requireToFail: \(req.map(String.init) ?? "nil"))"
            case let .removeRecognizer(r): return ".removeRecognizer(\(r))"
            case let .becomeFirst(t): return ".becomeFirst(\(t))"
            case .resignFirst: return ".resignFirst"
            case .cancelTouches: return ".cancelTouches"
            case .refreshPointer: return ".refreshPointer"
            case .refreshTouches: return ".refreshTouches"
            case let .addFilter(f, k): return ".addFilter(\(f), .\(k.rawValue))"
            case let .removeFilter(f): return ".removeFilter(\(f))"
            case let .arm(site, step): return ".arm(\(site), \(step))"
            case let .setBelowParent(s, b): return ".setBelowParent(\(s), \(b))"
            case let .popupGrab(s, c): return ".popupGrab(\(s), closes: \(c))"
            case let .nestedPopupGrab(s, c): return ".nestedPopupGrab(\(s), closes: \(c))"
            case let .lockGrab(k): return ".lockGrab(.\(k.rawValue))"
            case let .keyboardGrab(k): return ".keyboardGrab(.\(k.rawValue))"
            case let .endGrab(e): return ".endGrab(.\(e.rawValue))"
            case let .addDevice(d, o): return ".addDevice(\(d), mappedTo: \(o.map(String.init) ?? "nil"))"
            case let .touchFrom(d, ops): return ".touchFrom(\(d), [" + ops.map(\.description).joined(separator: ", ") + "])"
            }
        }
    }

    static let outputCount = 3
    static let surfaceCount = 10
    static let recognizerCount = 8
    static let filterCount = 2
    static let fingerCount = 5
    /// Touch devices besides the default one (device 0).
    static let deviceCount = 2

    /// A script of `count` steps from `seed`. The generator keeps a rough idea of the state
    /// (which surfaces it added, which fingers are down) only to make useful steps likely;
    /// the world decides what each step really does.
    static func generate(seed: UInt64, steps count: Int) -> [Step] {
        var g = Gen(seed: seed)
        var steps: [Step] = []
        steps.reserveCapacity(count)
        steps.append(.addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: g.chance(0.5)))
        if g.chance(0.6) { steps.append(g.addOutputStep(1)) }
        while steps.count < count { steps.append(g.step()) }
        return steps
    }

    /// Generator state: SplitMix64 plus the rough state.
    struct Gen {
        var rng: SeededGenerator
        var outputs: Set<Int> = [0]
        var added: Set<Int> = []
        var fingers: [Int: (Int, Int)] = [:]
        var buttons: Set<Int> = []
        var keys: Set<Int> = []
        var recognizers: Set<Int> = []
        var padActive = false
        /// The device the fingers down belong to (changed only with no finger down).
        var touchDevice = 0
        var devices: Set<Int> = []
        /// Where each output is, and the frame of surfaces added to a root: to aim the
        /// pointer at a surface before holding a button and removing it.
        var outputOrigin: [Int: (Int, Int)] = [0: (0, 0)]
        var topLevel: [Int: (Int, R)] = [:]
        /// Steps still to come of a sequence the generator started.
        var pending: [Step] = []

        init(seed: UInt64) { rng = SeededGenerator(seed: seed) }

        /// A frame of the current touch device.
        mutating func touchFrame() -> Step {
            if fingers.isEmpty && !devices.isEmpty && chance(0.3) {
                touchDevice = chance(0.3) ? 0 : pick(devices.sorted())
            }
            guard case let .touch(ops) = touchStep() else { return touchStep() }
            return touchDevice == 0 ? .touch(ops) : .touchFrom(touchDevice, ops)
        }

        /// A surface removed (or its output) while a button or keys are held on it: the
        /// pointer goes to the centre of a top-level surface, a button goes down (or the
        /// surface takes focus and a key goes down), then the surface or its output goes.
        mutating func heldRemoval() -> Step {
            guard let s = topLevel.keys.sorted().randomElement(using: &rng), let entry = topLevel[s] else {
                return .becomeFirst(.surface(surfaceIndex()))
            }
            let (o, r) = entry
            let origin = outputOrigin[o] ?? (0, 0)
            var seq: [Step] = []
            if chance(0.5) {
                seq.append(.pointerTo(x: origin.0 + r.x + r.w / 2, y: origin.1 + r.y + r.h / 2))
                let b = int(0...1)
                if !buttons.contains(b) {
                    buttons.insert(b)
                    seq.append(.button(b, pressed: true))
                }
            } else {
                seq.append(.becomeFirst(.surface(s)))
                let k = int(0...3)
                if !keys.contains(k) {
                    keys.insert(k)
                    seq.append(.key(k, .press))
                }
            }
            if chance(0.2) && o != 0 {
                outputs.remove(o)
                seq.append(.removeOutput(o))
            } else if chance(0.3) {
                seq.append(.arm(.surface(s, pick([.entered, .keyDown, .become])), .remove(s)))
            } else {
                added.remove(s)
                topLevel[s] = nil
                seq.append(.remove(s))
            }
            pending = Array(seq.dropFirst())
            return seq[0]
        }

        /// A grab started or ended.
        mutating func grabStep() -> Step {
            switch int(0...9) {
            case 0, 1: return .popupGrab(surfaceIndex(), closes: chance(0.5))
            case 2: return .nestedPopupGrab(surfaceIndex(), closes: chance(0.5))
            case 3: return .lockGrab(pick([LockKind.pointer, .touch, .keyboard, .all, .all]))
            case 4: return chance(0.3) ? .lockGrab(.all) : .keyboardGrab(pick(KeyGrabKind.allCases))
            case 5, 6: return .endGrab(pick([GrabEnd.popup, .lock, .lock]))
            default: return .endGrab(pick([GrabEnd.pointer, .touch, .keyboard]))
            }
        }

        mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
        mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
        mutating func pick<T>(_ values: [T]) -> T { values[int(0...(values.count - 1))] }

        mutating func addOutputStep(_ o: Int) -> Step {
            outputs.insert(o)
            for (s, (so, _)) in topLevel where so == o { topLevel[s] = nil }
            // Side by side, or overlapping the first (mirrored or overlapping outputs).
            let x = pick([800, 1600, 400, 0])
            let y = pick([0, 0, 200])
            outputOrigin[o] = (x, y)
            return .addOutput(o, x: x, y: y, w: pick([800, 640]), h: pick([600, 480]), rootFocusable: chance(0.4))
        }

        /// A point in layout space, mostly where surfaces are.
        mutating func point() -> (Int, Int) {
            if chance(0.75) { return (int(0...799), int(0...599)) }
            return (int(0...2399), int(0...799))
        }

        mutating func rect() -> R {
            R(int(-40...600), int(-40...450), int(40...420), int(40...360))
        }

        mutating func surfaceIndex() -> Int {
            if !added.isEmpty && chance(0.85) { return pick(added.sorted()) }
            return int(0...(FaultScript.surfaceCount - 1))
        }

        mutating func parent(excluding s: Int) -> Parent {
            let candidates = added.filter { $0 != s }.sorted()
            if !candidates.isEmpty && chance(0.55) { return .surface(pick(candidates)) }
            return .root(chance(0.8) ? pick(outputs.sorted().isEmpty ? [0] : outputs.sorted()) : int(0...(FaultScript.outputCount - 1)))
        }

        mutating func touchStep() -> Step {
            var ops: [TouchOp] = []
            let down = fingers.keys.sorted()
            // A finger roll: an ID goes up and down again inside one frame.
            if !down.isEmpty && chance(0.15) {
                let id = pick(down)
                let (x, y) = fingers[id]!
                let nx = x + int(-30...30), ny = y + int(-30...30)
                ops.append(.up(id))
                ops.append(.down(id, nx, ny))
                fingers[id] = (nx, ny)
                return .touch(ops)
            }
            for id in down {
                let r = Double.random(in: 0..<1, using: &rng)
                if r < 0.55 {
                    let (x, y) = fingers[id]!
                    let step = chance(0.7) ? 4 : 60
                    let nx = x + int(-step...step), ny = y + int(-step...step)
                    ops.append(.move(id, nx, ny))
                    fingers[id] = (nx, ny)
                } else if r < 0.75 {
                    ops.append(.up(id))
                    fingers[id] = nil
                }
            }
            if fingers.count < 3 && (ops.isEmpty || chance(0.4)) {
                let free = (0..<FaultScript.fingerCount).filter { fingers[$0] == nil }
                if !free.isEmpty {
                    let id = pick(free)
                    let p: (Int, Int)
                    if let first = fingers.keys.min(), let other = fingers[first], chance(0.6) {
                        p = (other.0 + int(-60...60), other.1 + int(-60...60))  // pinch material
                    } else {
                        p = point()
                    }
                    ops.append(.down(id, p.0, p.1))
                    fingers[id] = p
                }
            }
            if ops.isEmpty, let id = down.first { ops.append(.up(id)); fingers[id] = nil }
            return .touch(ops)
        }

        /// A step fit to run from inside a callback.
        mutating func nestedStep() -> Step {
            switch int(0...15) {
            case 14, 15: return grabStep()
            case 0, 1: return .remove(surfaceIndex())
            case 2: return .removeOutput(int(0...(FaultScript.outputCount - 1)))
            case 3, 4: let s = surfaceIndex(); return .reparent(s, to: parent(excluding: s), at: int(0...3))
            case 5: return .bringToFront(surfaceIndex())
            case 6: return .setFrame(surfaceIndex(), rect())
            case 7: return chance(0.5) ? .setHidden(surfaceIndex(), true) : .setInputDisabled(surfaceIndex(), true)
            case 8: return chance(0.7) ? .becomeFirst(.surface(surfaceIndex())) : .resignFirst
            case 9: return .cancelTouches
            case 10: return chance(0.5) ? .refreshPointer : .refreshTouches
            case 11: let (x, y) = point(); return .pointerTo(x: x, y: y)
            case 12: return .key(int(0...3), chance(0.5) ? .press : .release)
            default:
                if chance(0.5) { return .removeRecognizer(int(0...(FaultScript.recognizerCount - 1))) }
                let (x, y) = point()
                // Not a finger the script uses: an injected tap of its own.
                return .touch([.down(FaultScript.fingerCount, x, y), .up(FaultScript.fingerCount)])
            }
        }

        mutating func step() -> Step {
            if !pending.isEmpty { return pending.removeFirst() }
            // Issue 12's later additions: below-parent stacking, grabs, mapped devices,
            // removals while buttons and keys are held.
            if chance(0.1) {
                switch int(0...9) {
                case 0, 1: return .setBelowParent(surfaceIndex(), chance(0.6))
                case 2, 3, 4: return grabStep()
                case 5:
                    let d = int(1...FaultScript.deviceCount)
                    devices.insert(d)
                    return .addDevice(d, mappedTo: chance(0.8) ? int(0...(FaultScript.outputCount - 1)) : nil)
                default: return heldRemoval()
                }
            }
            let r = int(0...999)
            switch r {
            case 0..<230: return touchFrame()
            case 230..<270:
                if let id = fingers.keys.sorted().first, chance(0.3) { fingers[id] = nil; return .touchCancel(id) }
                return touchFrame()
            case 270..<330: let (x, y) = point(); return .pointerTo(x: x, y: y)
            case 330..<370: return .pointerBy(dx: int(-80...80), dy: int(-80...80))
            case 370..<410:
                let b = int(0...1)
                let pressed = !buttons.contains(b)
                if pressed { buttons.insert(b) } else { buttons.remove(b) }
                return .button(b, pressed: pressed)
            case 410..<425: return .axis(int(-3...3))
            case 425..<475:
                let k = int(0...3)
                if keys.contains(k) {
                    if chance(0.3) { return .key(k, .repeat) }
                    keys.remove(k)
                    return .key(k, .release)
                }
                keys.insert(k)
                return .key(k, .press)
            case 475..<495:
                let kind = pick([PadKind.swipe, .pinch, .hold])
                if padActive {
                    let phase = pick([PadPhase.update, .update, .end, .cancel])
                    if phase == .end || phase == .cancel { padActive = false }
                    return .touchpad(kind, phase, fingers: 3)
                }
                padActive = true
                return .touchpad(kind, .begin, fingers: pick([2, 3, 4]))
            case 495..<555: return .advance(ms: pick([8, 16, 120, 350, 600, 1200]))
            case 555..<610:
                let s = surfaceIndex()
                if added.contains(s) && chance(0.4) {
                    return .reparent(s, to: parent(excluding: s), at: int(0...3))
                }
                added.insert(s)
                let p = parent(excluding: s), frame = rect()
                if case .root(let o) = p { topLevel[s] = (o, frame) } else { topLevel[s] = nil }
                return .add(s, to: p, at: int(0...3), frame: frame, focusable: chance(0.5))
            case 610..<630: let s = surfaceIndex(); return .reparent(s, to: parent(excluding: s), at: int(0...3))
            case 630..<645:
                let s = surfaceIndex()
                added.remove(s)
                topLevel[s] = nil
                return .remove(s)
            case 645..<660: return .bringToFront(surfaceIndex())
            case 660..<680: return .setFrame(surfaceIndex(), rect())
            case 680..<692: return .setHidden(surfaceIndex(), chance(0.5))
            case 692..<704: return .setInputDisabled(surfaceIndex(), chance(0.5))
            case 704..<712: return .setClips(surfaceIndex(), chance(0.5))
            case 712..<722:
                let s = surfaceIndex()
                switch int(0...2) {
                case 0: return .setInputRegion(s, nil)
                case 1: return .setInputRegion(s, [])
                default: return .setInputRegion(s, [R(int(0...100), int(0...100), int(20...200), int(20...200))])
                }
            case 722..<734:
                let o = int(0...(FaultScript.outputCount - 1))
                if outputs.contains(o) && o != 0 || (o == 0 && chance(0.3) && outputs.contains(0)) {
                    outputs.remove(o)
                    return .removeOutput(o)
                }
                return addOutputStep(o)
            case 734..<790:
                let rIndex = int(0...(FaultScript.recognizerCount - 1))
                if recognizers.contains(rIndex) && chance(0.3) {
                    recognizers.remove(rIndex)
                    return .removeRecognizer(rIndex)
                }
                recognizers.insert(rIndex)
                let kind = pick([Rec.tap, .tap, .doubleTap, .pan, .pinch, .pinch, .longPress, .longPress, .delayingTap])
                let host: Host = chance(0.3) ? .output(int(0...(FaultScript.outputCount - 1))) : .surface(surfaceIndex())
                let req: Int? = rIndex > 0 && chance(0.3) ? int(0...(rIndex - 1)) : nil
                return .addRecognizer(rIndex, kind, on: host, requireToFail: req)
            case 790..<830:
                if chance(0.2) { return .resignFirst }
                if chance(0.15) { return .becomeFirst(.root(int(0...(FaultScript.outputCount - 1)))) }
                return .becomeFirst(.surface(surfaceIndex()))
            case 830..<840: return .cancelTouches
            case 840..<845: return .refreshPointer
            case 845..<850: return .refreshTouches
            case 850..<870:
                let f = int(0...(FaultScript.filterCount - 1))
                if chance(0.5) { return .removeFilter(f) }
                return .addFilter(f, pick([FilterKind.touch, .touch, .pointer, .keys, .all]))
            default:
                let site: ArmSite
                if chance(0.15) {
                    site = .recognizer(int(0...(FaultScript.recognizerCount - 1)))
                } else {
                    site = .surface(surfaceIndex(), pick(Callback.allCases))
                }
                return .arm(site, nestedStep())
            }
        }
    }
}
