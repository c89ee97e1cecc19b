import CKioskCalloc
import Foundation
import Testing

/// The kiosks' calloc (examples/kiosk-calloc/kiosk_calloc.c): malloc and memset up to the
/// tcache's largest request, glibc's calloc beyond, as calloc's contract asks.
@Suite struct KioskCallocTests {
    /// A chunk freed dirty and taken again through the tcache comes back zeroed: the memset is
    /// what makes malloc's recycled memory a calloc's.
    @Test func memoryRecycledThroughTheThreadCacheComesBackZeroed() throws {
        for size in [1, 24, 208, 1_000, Int(KIOSK_CALLOC_TCACHE_MAX_REQUEST), Int(KIOSK_CALLOC_TCACHE_MAX_REQUEST) + 1, 70_000] {
            // Dirty a chunk of this size and free it, so the next request of it reuses it.
            let dirty = try #require(malloc(size))
            memset(dirty, 0xA5, size)
            free(dirty)
            let memory = try #require(kiosk_calloc(1, size))
            defer { free(memory) }
            let bytes = memory.assumingMemoryBound(to: UInt8.self)
            #expect((0..<size).allSatisfy { bytes[$0] == 0 }, "\(size) bytes not zeroed")
        }
    }

    /// count × size is checked: an overflowing request gets no memory and ENOMEM, never a
    /// short block.
    @Test func aRequestWhoseSizeOverflowsGetsNoMemoryAndENOMEM() {
        errno = 0
        let memory = kiosk_calloc(Int.max / 2, 4)
        #expect(memory == nil)
        #expect(errno == ENOMEM)
    }

    /// Elements of several bytes: the whole count × size is zeroed.
    @Test func everyElementOfAnArrayRequestIsZeroed() throws {
        let dirty = try #require(malloc(40 * 8))
        memset(dirty, 0xFF, 40 * 8)
        free(dirty)
        let memory = try #require(kiosk_calloc(40, 8))
        defer { free(memory) }
        let words = memory.assumingMemoryBound(to: UInt64.self)
        #expect((0..<40).allSatisfy { words[$0] == 0 })
    }
}
