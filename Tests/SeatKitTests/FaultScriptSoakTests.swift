import Foundation
import SeatKit
import Testing

/// Issue 12's proof: seeded fault scripts (FaultScript.swift) replayed against a reference
/// model (FaultScriptWorld.swift), every invariant checked after every step.
///
/// The default run is `defaultSeeds` seeds of `defaultSteps` steps. A longer run:
///
///     SEATKIT_SOAK_SEEDS=1000 SEATKIT_SOAK_STEPS=2000 SEATKIT_SOAK_FIRST_SEED=1 \
///         swift test -c release -Xswiftc -enable-testing --filter FaultScriptSoakTests
///
/// prints seeds, steps, steps per second and the failures. A failing seed prints the
/// invariant, the seed and a minimal script (one step per line) to paste into a test.
@Suite("Fault-script soak")
struct FaultScriptSoakTests {
    static let defaultSeeds = 200
    static let defaultSteps = 300

    static func environment(_ name: String) -> Int? {
        ProcessInfo.processInfo.environment[name].flatMap { Int($0) }
    }

    struct Failure {
        var seed: UInt64
        var violation: SoakViolation
    }

    /// Runs seeds `first ..< first + seeds`; returns the failures and the number of steps run.
    static func soak(first: UInt64, seeds: Int, steps: Int) -> (failures: [Failure], steps: Int) {
        var failures: [Failure] = []
        var total = 0
        for seed in first..<(first + UInt64(seeds)) {
            let script = FaultScript.generate(seed: seed, steps: steps)
            // Past the first violation, so that one failure does not hide the others.
            for v in FaultScriptWorld.runCollectingAll(script) { failures.append(Failure(seed: seed, violation: v)) }
            total += script.count
        }
        return (failures, total)
    }

    /// The report of a soak: per invariant, how many seeds broke it, and the minimal script
    /// of its first seed (at most `shrinkLimit` invariants are shrunk).
    static func report(_ failures: [Failure], steps: Int, shrinkLimit: Int) -> String {
        var byInvariant: [String: [Failure]] = [:]
        for f in failures { byInvariant[f.violation.invariant, default: []].append(f) }
        var text = ""
        for (n, (invariant, list)) in byInvariant.sorted(by: { $0.key < $1.key }).enumerated() {
            let first = list[0]
            text += "\n=== invariant \(invariant): \(list.count) seed(s), first seed \(first.seed)\n"
            text += "    \(first.violation)\n"
            guard n < shrinkLimit else { continue }
            let script = FaultScript.generate(seed: first.seed, steps: steps)
            let minimal = FaultScriptWorld.shrink(script, invariant: invariant)
            let v = FaultScriptWorld.run(minimal, only: invariant)
            text += "    minimal script (\(minimal.count) steps): \(v.map(\.description) ?? "no longer fails")\n"
            text += FaultScriptWorld.swiftSource(minimal) + "\n"
        }
        return text
    }

    @Test func everyInvariantHoldsOnSeededFaultScripts() {
        let seeds = Self.environment("SEATKIT_SOAK_SEEDS") ?? Self.defaultSeeds
        let steps = Self.environment("SEATKIT_SOAK_STEPS") ?? Self.defaultSteps
        let first = UInt64(Self.environment("SEATKIT_SOAK_FIRST_SEED") ?? 1)
        let started = ContinuousClock.now
        let (failures, total) = Self.soak(first: first, seeds: seeds, steps: steps)
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = seconds > 0 ? Double(total) / seconds : 0
        let failingSeeds = Set(failures.map(\.seed)).count
        print("fault-script soak: seeds \(first)..<\(first + UInt64(seeds)), \(steps) steps each, \(total) steps run in \(String(format: "%.2f", seconds)) s (\(Int(rate)) steps/s), \(failingSeeds) failing seed(s), \(Set(failures.map(\.violation.invariant)).count) invariant(s) broken")
        guard !failures.isEmpty else { return }
        let text = Self.report(failures, steps: steps, shrinkLimit: Self.environment("SEATKIT_SOAK_SHRINK") ?? 40)
        print(text)
        let names = Set(failures.map(\.violation.invariant)).sorted().joined(separator: ", ")
        Issue.record("\(failingSeeds) of \(seeds) seeds broke invariants \(names); minimal scripts printed above")
    }

    /// Scripts without the edits issue 12 is about (no moves, removals, reused IDs or
    /// edits from callbacks): what the core handled right before issue 12. Every invariant
    /// must hold on them; this checks the reference model as much as the router.
    static func withoutIssue12Faults(_ script: [FaultScript.Step]) -> [FaultScript.Step] {
        script.filter { step in
            switch step {
            case .reparent, .remove, .removeOutput, .arm: return false
            // The API issue 12 added: below-parent stacking, grabs, mapped devices.
            case .setBelowParent, .popupGrab, .nestedPopupGrab, .lockGrab, .keyboardGrab, .endGrab, .addDevice, .touchFrom: return false
            case .touch(let ops):
                var ups: Set<Int> = []
                for op in ops {
                    if case .up(let id) = op { ups.insert(id) }
                    if case .down(let id, _, _) = op, ups.contains(id) { return false }
                }
                return true
            default: return true
            }
        }
    }

    /// `d.reuse-order-held` is left out here: the current core breaks it without any of
    /// issue 12's edits (a double tap holds a lifted touch's end while its ID comes down
    /// again in a later frame), and the main soak reports it.
    @Test func everyInvariantHoldsWithoutTheEditsOfIssue12() {
        var broken: [String] = []
        let seeds = Self.environment("SEATKIT_SOAK_SEEDS") ?? 60
        let steps = Self.environment("SEATKIT_SOAK_STEPS") ?? Self.defaultSteps
        let first = UInt64(Self.environment("SEATKIT_SOAK_FIRST_SEED") ?? 1)
        for seed in first..<(first + UInt64(seeds)) {
            let script = Self.withoutIssue12Faults(FaultScript.generate(seed: seed, steps: steps))
            for v in FaultScriptWorld.runCollectingAll(script, ignoring: ["d.reuse-order-held"]) {
                let minimal = FaultScriptWorld.shrink(script, invariant: v.invariant)
                broken.append("seed \(seed): \(v)\n" + FaultScriptWorld.swiftSource(minimal))
            }
            if broken.count >= 5 { break }
        }
        #expect(broken.isEmpty, "\(broken.joined(separator: "\n\n"))")
    }

    /// The generator and the printer agree: a script prints one Swift expression per step,
    /// and the same seed gives the same script.
    @Test func scriptsAreDeterministicAndPrintable() {
        let a = FaultScript.generate(seed: 7, steps: 400)
        let b = FaultScript.generate(seed: 7, steps: 400)
        #expect(a == b, "the same seed gave two scripts")
        #expect(a.count == 400)
        let text = FaultScriptWorld.swiftSource(a)
        #expect(text.hasPrefix("let script: [FaultScript.Step] = [\n"))
        #expect(!text.contains("FaultScript.Step."))
        // The generator produces every kind of step the issue lists, reused IDs included.
        let lines = a.map(\.description)
        for kind in [".touch(", ".reparent(", ".remove(", ".removeOutput(", ".arm(", ".addRecognizer(",
                     ".becomeFirst(", ".advance(", ".pointerTo(", ".key("] {
            #expect(lines.contains { $0.hasPrefix(kind) }, "no \(kind) step in 400 steps")
        }
        let seeds = (UInt64(1)...50).map { FaultScript.generate(seed: $0, steps: 300) }
        let reuse = seeds.contains { $0.contains { step in
            if case let .touch(ops) = step, ops.count == 2, case let .up(a) = ops[0], case let .down(b, _, _) = ops[1] { return a == b }
            return false
        } }
        #expect(reuse, "no finger roll (an ID up and down in one frame) in 50 scripts")
    }

    /// The model itself: a script with no faults in it keeps every invariant, and the
    /// checks see what they claim to see (a touch ended, a pointer enter and leave, focus).
    @Test func aPlainScriptKeepsEveryInvariant() {
        let script: [FaultScript.Step] = [
            .addOutput(0, x: 0, y: 0, w: 800, h: 600, rootFocusable: false),
            .add(1, to: .root(0), at: 0, frame: R(100, 100, 200, 200), focusable: true),
            .add(2, to: .surface(1), at: 0, frame: R(10, 10, 50, 50), focusable: true),
            .pointerTo(x: 250, y: 250),
            .becomeFirst(.surface(2)),
            .touch([.down(0, 120, 120)]),
            .touch([.move(0, 125, 125)]),
            .touch([.up(0)]),
            .touch([.down(0, 130, 130), .down(1, 250, 250)]),
            .touch([.up(0), .up(1)]),
            .advance(ms: 1200),
            .key(0, .press),
            .key(0, .release),
            .pointerTo(x: 700, y: 500),
        ]
        let world = FaultScriptWorld()
        #expect(world.run(script) == nil)
        let s1 = world.surfaces[1]!.responder as! SoakResponder
        let s2 = world.surfaces[2]!.responder as! SoakResponder
        #expect(s1.enterCount == 1 && s1.leaveCount == 1)
        #expect(s2.became && s2.becomeCount == 1)
        #expect(world.router.activeTouchCount == 0)
        // The reference hit-test sees the tree.
        #expect(world.bruteHit(LayoutPoint(x: 120, y: 120)) === world.surfaces[2])
        #expect(world.bruteHit(LayoutPoint(x: 250, y: 250)) === world.surfaces[1])
        #expect(world.bruteHit(LayoutPoint(x: 700, y: 500)) === world.outputs[0]?.root)
    }
}
