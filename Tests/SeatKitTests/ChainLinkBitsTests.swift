import Testing
@_spi(SeatKitInternals) @testable import SeatKit

/// A touch's seen list finds a surface's link by its bits (`ChainLink.hasBits(of:)`,
/// "Finding a surface in a touch's seen list by its bits", UnsafeFoundations.swift): a link
/// is one word and a surface's link is the surface's pointer, and no other link has those
/// bits. Were the layout to change, these fail and the lookup is only slower (it compares
/// identities when the bits differ), never wrong.
@Suite struct ChainLinkBitsTests {
    /// Notes `link` as a began walk does, by its parts.
    private func note(_ link: ChainLink, on sequence: TouchSequence) {
        switch link {
        case .surface(let surface): sequence.noteSeen(surface: Unretained(surface), output: nil)
        case .output(let output): sequence.noteSeen(surface: nil, output: Unretained(output))
        case .delegate: sequence.noteSeen(surface: nil, output: nil)
        }
    }

    @Test func aChainLinkIsOneWordAndASurfacesLinkHasTheSurfacesBits() {
        #expect(MemoryLayout<ChainLink>.size == MemoryLayout<UInt>.size)
        let surface = Surface(name: "s", frame: SurfaceRect(x: 0, y: 0, width: 10, height: 10))
        let link = ChainLink.surface(surface)
        #expect(link.hasBits(of: ObjectIdentifier(surface)))
    }

    @Test func noOtherLinkHasASurfacesBits() {
        let surface = Surface(name: "s", frame: SurfaceRect(x: 0, y: 0, width: 10, height: 10))
        let other = Surface(name: "t", frame: SurfaceRect(x: 0, y: 0, width: 10, height: 10))
        let output = Output(name: "OUT", position: LayoutPoint(x: 0, y: 0), modeSize: Size(width: 100, height: 100))
        let id = ObjectIdentifier(surface)
        #expect(!ChainLink.surface(other).hasBits(of: id))
        #expect(!ChainLink.output(output).hasBits(of: id))
        #expect(!ChainLink.delegate.hasBits(of: id))
        // An output's link does not have the output's own bits either: its case is in them.
        #expect(!ChainLink.output(output).hasBits(of: ObjectIdentifier(output)))
    }

    @Test func aTouchsSeenListFindsEachKindOfLinkWhereverTheHintPoints() {
        let surface = Surface(name: "s", frame: SurfaceRect(x: 0, y: 0, width: 10, height: 10))
        let output = Output(name: "OUT", position: LayoutPoint(x: 0, y: 0), modeSize: Size(width: 100, height: 100))
        let sequence = TouchSequence()
        note(.surface(surface), on: sequence)
        note(.output(output), on: sequence)
        note(.delegate, on: sequence)
        for _ in 0..<2 {
            #expect(sequence.hasSeen(identity: ObjectIdentifier(surface)))
            #expect(sequence.hasSeen(identity: ObjectIdentifier(output)))
            #expect(sequence.hasSeen(identity: nil))
        }
        #expect(!sequence.hasSeen(identity: ObjectIdentifier(Surface(name: "t", frame: SurfaceRect(x: 0, y: 0, width: 1, height: 1)))))
    }

    @Test func aLinkThatSeesATouchBeginTwiceIsListedOnce() {
        let surface = Surface(name: "s", frame: SurfaceRect(x: 0, y: 0, width: 10, height: 10))
        let output = Output(name: "OUT", position: LayoutPoint(x: 0, y: 0), modeSize: Size(width: 100, height: 100))
        let sequence = TouchSequence()
        for _ in 0..<2 {
            note(.surface(surface), on: sequence)
            note(.output(output), on: sequence)
            note(.delegate, on: sequence)
        }
        #expect(sequence.unchecked.seen.map(\.identity) == [ObjectIdentifier(surface), ObjectIdentifier(output), nil])
    }

    /// A began walk notes the link it asks by its parts (`TouchSequence.noteSeen(surface:output:)`,
    /// the link made only when listed): each link listed once however often noted, in the
    /// order first noted, a second surface beside the first, and the listed links owning.
    @Test func aLinkNotedByItsPartsIsListedOnceInTheOrderNoted() {
        let surface = Surface(name: "s", frame: SurfaceRect(x: 0, y: 0, width: 10, height: 10))
        let other = Surface(name: "t", frame: SurfaceRect(x: 0, y: 0, width: 10, height: 10))
        let output = Output(name: "OUT", position: LayoutPoint(x: 0, y: 0), modeSize: Size(width: 100, height: 100))
        let sequence = TouchSequence()
        for _ in 0..<2 {
            sequence.noteSeen(surface: Unretained(surface), output: nil)
            sequence.noteSeen(surface: nil, output: Unretained(output))
            sequence.noteSeen(surface: nil, output: nil)
            sequence.noteSeen(surface: Unretained(other), output: nil)
        }
        #expect(sequence.unchecked.seen.map(\.identity) == [ObjectIdentifier(surface), ObjectIdentifier(output), nil, ObjectIdentifier(other)])
        // The links listed hold their objects (made owning, not borrowed).
        #expect(sequence.unchecked.seen[3].isSame(as: .surface(other)))
        #expect(sequence.unchecked.seen[1].isSame(as: .output(output)))
    }
}
