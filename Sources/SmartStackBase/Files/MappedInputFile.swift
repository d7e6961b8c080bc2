import Foundation

/// An input file mapped read-only into memory, for one pass from its start to its end
/// with only a bounded part of it resident: what lets `validate` read a file of up to
/// 2 GiB without holding it whole.
///
/// It is opened with every check `FileIO.readBytes` makes (`FileIO.openInput`: regular
/// file only, checked before and after `open`; `O_NONBLOCK`; not a file of a pending
/// import; at most `InputLimits.maximumFileBytes`). A file whose size is 0 by `fstat` is
/// read instead of mapped (`/proc` files have no size beforehand, and an empty mapping is
/// not allowed).
///
/// **Invariants** (the unsafe code lives only here):
/// - `bytes` covers exactly the `count` bytes mapped with `PROT_READ`, `MAP_PRIVATE` from
///   offset 0 of the file (or an owned array's storage when the file was read), readable
///   until `deinit` unmaps them; the buffer must not be used after the file is gone, so
///   it is only lent out, inside `withBytes`.
/// - `release(before:)` applies `madvise(MADV_DONTNEED)` to the whole pages below an
///   offset: the pages stop being resident (the mapping is private and never written, so
///   they are clean copies of the file); touching them again reads them back from the
///   file. Callers pass only offsets they will not read below again, so the resident
///   part is what the reader is still working on plus the kernel's read-ahead.
/// - The file must not be truncated by another program while it is mapped: reading a
///   page past its new end raises `SIGBUS` (as for any reader that maps files). Writes
///   by others to a mapped file may be seen part way.
///
/// - Complexity: `init` O(1) for a mapped file (O(n) for a read one); `release` O(pages
///   released).
public final class MappedInputFile {
  /// The least a `release(before:)` lets go of: 8 MiB (fewer, bigger `madvise` calls).
  public static let releaseStep = 1 << 23

  /// The file's bytes (mapped or read).
  private let base: UnsafeRawPointer?
  /// The number of bytes.
  public let count: Int
  /// True when `base` is a mapping to `munmap` in `deinit`.
  private let mapped: Bool
  /// The bytes of a file that was read instead of mapped.
  private let owned: [UInt8]
  /// The offset below which the pages were released (a multiple of the page size). O(1).
  public private(set) var released = 0
  private let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

  /// Opens and maps `path` (see the type's documentation for the checks).
  ///
  /// - Throws: `InputFileError` as `FileIO.readBytes` does, or when the file cannot be mapped.
  public init(path: String) throws {
    let (descriptor, size) = try FileIO.openInput(path)
    defer { close(descriptor) }
    if size == 0 {
      owned = try FileIO.readBytes(descriptor, path: path, expected: 0)
      base = nil
      count = owned.count
      mapped = false
      return
    }
    guard let pointer = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0),
      pointer != MAP_FAILED
    else {
      throw InputFileError(path: path, reason: "cannot be mapped into memory")
    }
    _ = madvise(pointer, size, MADV_SEQUENTIAL)
    base = UnsafeRawPointer(pointer)
    count = size
    mapped = true
    owned = []
  }

  deinit {
    if mapped, let base { munmap(UnsafeMutableRawPointer(mutating: base), count) }
  }

  /// Calls `body` with the file's bytes; the buffer is valid only inside `body`.
  public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    if !mapped { return try owned.withUnsafeBufferPointer(body) }
    return try body(UnsafeBufferPointer(start: base?.assumingMemoryBound(to: UInt8.self), count: count))
  }

  /// Lets go of the whole pages below `offset` (see the invariants) once they add up to
  /// `releaseStep`: the reader promises not to read below `offset` again (reading there
  /// stays correct, only slower). O(1) when nothing is released.
  public func release(before offset: Int) {
    guard mapped, let base, offset - released >= Self.releaseStep else { return }
    let end = min(offset, count) / pageSize * pageSize
    _ = madvise(UnsafeMutableRawPointer(mutating: base + released), end - released, MADV_DONTNEED)
    released = end
  }
}
