import Testing
@testable import SeatKit

@Suite("The responder chain and actions")
struct ResponderChainTests {
    @Test func chainOrderIsSurfaceParentRootOutputDelegate() {
        let h = Harness()
        h.output.responder = RecordingResponder("output", log: h.log)
        h.output.root.responder = RecordingResponder("root", log: h.log)
        let parent = h.surface("parent", 0, 0, 500, 500)
        h.surface("child", 0, 0, 100, 100, in: parent)
        h.pointer(to: 10, 10)
        h.log.clear()
        h.press()
        #expect(h.log.entries == ["child.button", "parent.button", "root.button", "output.button", "delegate.button"])
    }

    @Test func theFirstResponderThatHandlesEndsTheWalk() {
        let h = Harness()
        let parent = h.surface("parent", 0, 0, 500, 500, handles: ["button"])
        h.surface("child", 0, 0, 100, 100, in: parent)
        h.pointer(to: 10, 10)
        h.log.clear()
        h.press()
        #expect(h.log.entries == ["child.button", "parent.button"])
        #expect(!h.delegate.dropped.contains("button"))
    }

    @Test func anOverriddenNextRedirectsUnhandledEvents() {
        let h = Harness()
        let sidebar = h.surface("sidebar", 600, 0, 100, 100, handles: ["button"])
        let parent = h.surface("parent", 0, 0, 500, 500)
        let popup = h.surface("popup", 0, 0, 100, 100, in: parent)
        // The popup's events go to the sidebar instead of its parent.
        popup.recorder.redirect = .some(.surface(sidebar))
        h.pointer(to: 10, 10)
        h.log.clear()
        h.press()
        #expect(h.log.entries == ["popup.button", "sidebar.button"])
    }

    @Test func aRedirectCycleIsCutOffAndReportedDropped() {
        let h = Harness()
        let trace = TraceLog()
        let a = h.surface("a", 0, 0, 100, 100)
        let b = h.surface("b", 200, 0, 100, 100)
        a.recorder.redirect = .some(.surface(b))
        b.recorder.redirect = .some(.surface(a))
        h.pointer(to: 10, 10)
        h.router.trace = trace
        h.press()
        #expect(h.delegate.dropped == ["motion", "button"])
        #expect(trace.records.contains(.chainCycle(.pointerButton)))
    }

    @Test func anActionWithNoTargetIsFoundTwoRespondersUp() {
        let h = Harness()
        let window = h.surface("window", 0, 0, 500, 500)
        let pane = h.surface("pane", 0, 0, 200, 200, in: window)
        let field = h.surface("field", 0, 0, 100, 20, in: pane, canBecomeFirst: true)
        window.recorder.actions = ["copy"]
        h.router.becomeFirstResponder(field)
        h.log.clear()
        #expect(h.router.sendAction("copy"))
        #expect(h.log.entries == ["window.perform(copy)"])
    }

    @Test func anActionWithATargetGoesStraightThere() {
        let h = Harness()
        let window = h.surface("window", 0, 0, 500, 500)
        let field = h.surface("field", 0, 0, 100, 20, in: window, canBecomeFirst: true)
        window.recorder.actions = ["copy"]
        field.recorder.actions = ["copy"]
        h.log.clear()
        #expect(h.router.sendAction("copy", to: window))
        #expect(h.log.entries == ["window.perform(copy)"])
    }

    @Test func anActionNobodyCanPerformIsReportedDropped() {
        let h = Harness()
        #expect(!h.router.sendAction("fly"))
        #expect(h.delegate.dropped == ["action(fly)"])
    }
}
