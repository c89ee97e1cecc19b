import Testing
import SeatKit
import SeatKitXKB
#if canImport(Glibc)
import Glibc
#endif

@Suite struct KeymapFileTests {
    private func contents(of file: KeymapFile) -> [UInt8] {
        var bytes = [UInt8](repeating: 0xff, count: file.size)
        let read = bytes.withUnsafeMutableBytes { pread(file.fileDescriptor, $0.baseAddress, file.size, 0) }
        #expect(read == file.size)
        return bytes
    }

    @Test func theKeymapIsWrittenOnceToASealedMemfdWithItsNul() throws {
        let text = try keymap("de").text
        let file = try KeymapFile(text: text)
        #expect(file.storage == .sealedMemfd)
        #expect(file.isSealed)
        #expect(file.size == text.utf8.count + 1)
        let bytes = contents(of: file)
        #expect(bytes.last == 0)
        #expect(String(decoding: bytes.dropLast(), as: UTF8.self) == text)
        // Sealed: nobody can change what clients map, through any descriptor.
        #expect(pwrite(file.fileDescriptor, "x", 1, 0) == -1)
        #expect(ftruncate(file.fileDescriptor, 1) == -1)
    }

    @Test func theFallbackIsAnUnlinkedFileSharedReadOnly() throws {
        let text = try keymap("us").text
        let file = try KeymapFile(text: text, storage: .unlinkedTemporaryFile)
        #expect(file.storage == .unlinkedTemporaryFile)
        #expect(file.size == text.utf8.count + 1)
        #expect(String(decoding: contents(of: file).dropLast(), as: UTF8.self) == text)
        var info = stat()
        #expect(fstat(file.fileDescriptor, &info) == 0)
        #expect(info.st_nlink == 0)
        #expect(pwrite(file.fileDescriptor, "x", 1, 0) == -1)
        #expect(errno == EBADF)
    }

    @Test func anUnchangedKeymapIsNotWrittenAgain() throws {
        let keyboard = Keyboard(keymap: try keymap("us"))
        let first = try keyboard.keymapFile()
        #expect(try keyboard.keymapFile() === first)
        // The same names compiled again give the same text: the same file.
        keyboard.setKeymap(try keymap("us"))
        #expect(try keyboard.keymapFile() === first)
        keyboard.setKeymap(try keymap("de"))
        let second = try keyboard.keymapFile()
        #expect(second !== first)
        #expect(second.size == keyboard.keymap.text.utf8.count + 1)
    }
}
