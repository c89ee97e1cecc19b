#if canImport(Glibc)
import Glibc
#endif

/// Why a file someone named (a recording, a layout, a quirks file) could not be read whole.
/// Its description is one line that names the path, for a command line and for a test's
/// failure message alike.
package struct InputFileError: Error, CustomStringConvertible, Sendable {
    package let path: String
    package let reason: String
    package var description: String { "\(path): \(reason)" }
}

/// Reads a whole file that a user named, bounded and without surprises: a directory, a
/// device such as `/dev/zero`, a FIFO with no writer, a file over the limit, an unreadable
/// file and a file that changes size while it is read each give an ``InputFileError``; none
/// allocates by a size the file does not have, blocks forever or reads without end.
///
/// Pipes and FIFOs (`seatkit info <(zcat rec.yml.gz)`) are read to their end, up to the limit.
package enum InputFile {
    /// The largest file read: 1 GiB. A `libinput record` of an hour of a 1 kHz mouse is
    /// about 200 MB.
    package static let defaultLimit = 1 << 30

    package static func read(_ path: String, limit: Int = defaultLimit) -> Result<[UInt8], InputFileError> {
        func failure(_ reason: String) -> Result<[UInt8], InputFileError> { .failure(InputFileError(path: path, reason: reason)) }
        // O_NONBLOCK: opening a FIFO with no writer would otherwise wait for one. It is
        // cleared again before reading, so a pipe whose writer is slow is still read whole.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return failure(reasonFor(errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return failure(reasonFor(errno)) }
        let kind = info.st_mode & S_IFMT
        let isRegular = kind == S_IFREG
        switch kind {
        case S_IFDIR: return failure("is a directory, not a file")
        case S_IFCHR: return failure("is a character device, not a file")
        case S_IFBLK: return failure("is a block device, not a file")
        case S_IFSOCK: return failure("is a socket, not a file")
        default: break
        }
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }

        // A regular file is read in one buffer of its size plus one byte (which finds the
        // end, or finds that it grew); /proc files report 0 and pipes have no size, so those
        // grow by doubling up to the limit.
        let size = isRegular ? Int(info.st_size) : 0
        if size > limit { return failure("is \(megabytes(size)); the limit is \(megabytes(limit))") }
        var bytes = [UInt8](repeating: 0, count: size > 0 ? size + 1 : min(limit + 1, 64 << 10))
        var count = 0
        while true {
            if count == bytes.count {
                // A regular file that gave more than its size grew while it was read.
                if bytes.count > limit || size > 0 { break }
                bytes.append(contentsOf: repeatElement(0, count: min(bytes.count, limit + 1 - bytes.count)))
            }
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 {
                if errno == EINTR { continue }
                return failure(reasonFor(errno))
            }
            if n == 0 { break }
            count += n
        }
        if count > limit { return failure("is over the limit of \(megabytes(limit))") }
        if isRegular && size > 0 && count != size {
            return failure("changed while it was read (\(count) bytes read of the \(size) it had)")
        }
        bytes.removeSubrange(count...)
        return .success(bytes)
    }

    static func reasonFor(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file"
        case EACCES, EPERM: return "permission denied"
        case EISDIR: return "is a directory, not a file"
        case ELOOP: return "too many symbolic links"
        case ENOTDIR: return "a part of the path is not a directory"
        default: return String(cString: strerror(code))
        }
    }

    static func megabytes(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}
