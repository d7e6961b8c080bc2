import Foundation

/// An input file that cannot be opened or read (missing, a folder, no permission).
public struct InputFileError: Error, Sendable, CustomStringConvertible {
  public var path: String
  public var reason: String
  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }
  public var description: String { TerminalText.escapingControls("\(path): cannot read: \(reason)") }
}

/// An output file or folder that cannot be created or written.
public struct OutputFileError: Error, Sendable, CustomStringConvertible {
  public var path: String
  public var reason: String
  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }
  public var description: String { TerminalText.escapingControls("\(path): cannot write: \(reason)") }
}

/// Whole-file reads and atomic writes.
public enum FileIO {
  /// Reads a whole file as bytes.
  ///
  /// The bytes go straight from the file into the array's storage (one copy, not two
  /// through `Data`); a regular file whose size is unknown beforehand (`/proc`) is read
  /// on to its end.
  ///
  /// Only regular files are read: the path is checked with `stat` before it is opened
  /// (a FIFO with no writer would block `open` for ever), opened with `O_NONBLOCK`, and
  /// checked again on the open descriptor (`fstat`), so nothing else slips in between.
  ///
  /// - Throws: `InputFileError` when the path is missing (`no such file`), a folder, a
  ///   symbolic link loop (`too many levels of symbolic links`), not a regular file (a
  ///   FIFO, a device, a socket), unreadable, larger than
  ///   `InputLimits.maximumFileBytes` (refused before reading, not after running out of
  ///   memory), or one of the files of an import interrupted while putting them in
  ///   place (`FileSet.pendingError`: they may be of two imports).
  public static func readBytes(_ path: String) throws -> [UInt8] {
    let (descriptor, expected) = try openInput(path)
    defer { close(descriptor) }
    return try readBytes(descriptor, path: path, expected: expected)
  }

  /// Opens `path` for reading with every check `readBytes` makes (regular file only,
  /// checked before and after `open`; `O_NONBLOCK`; not a pending import's file; at most
  /// `InputLimits.maximumFileBytes` by its size) and returns the descriptor, which the
  /// caller closes, and the size `fstat` gave.
  ///
  /// - Throws: `InputFileError` as `readBytes` does.
  package static func openInput(_ path: String) throws -> (descriptor: Int32, size: Int) {
    var info = stat()
    guard stat(path, &info) == 0 else { throw InputFileError(path: path, reason: openFailure(errno)) }
    try requireRegular(path, info)
    if let pending = FileSet.pendingError(path) { throw pending }
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { throw InputFileError(path: path, reason: openFailure(errno)) }
    do {
      guard fstat(descriptor, &info) == 0 else { throw unreadableError(path) }
      try requireRegular(path, info)
      let size = max(0, Int(info.st_size))
      guard size <= InputLimits.maximumFileBytes else { throw tooLarge(path, size: size) }
      return (descriptor, size)
    } catch {
      close(descriptor)
      throw error
    }
  }

  /// Reads the open `descriptor` to its end: `expected` bytes straight into the array,
  /// then on while there is more (a `/proc` file's size is unknown beforehand).
  package static func readBytes(_ descriptor: Int32, path: String, expected: Int) throws -> [UInt8] {
    let unreadable = unreadableError(path)
    var failed = false
    var bytes = [UInt8](unsafeUninitializedCapacity: expected) { buffer, count in
      count = 0
      guard let base = buffer.baseAddress else { return }
      while count < expected {
        let n = read(descriptor, base + count, expected - count)
        if n > 0 {
          count += n
        } else if n == 0 || errno != EINTR {
          failed = n < 0
          return
        }
      }
    }
    guard !failed else { throw unreadable }
    // Whatever the size said, read on to the end.
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let n = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if n > 0 {
        bytes.append(contentsOf: chunk[0..<n])
        if bytes.count > InputLimits.maximumFileBytes { throw tooLarge(path, size: bytes.count) }
      } else if n == 0 {
        break
      } else if errno != EINTR {
        throw unreadable
      }
    }
    return bytes
  }

  private static func unreadableError(_ path: String) -> InputFileError {
    InputFileError(path: path, reason: "permission denied or unreadable")
  }

  /// Why `stat` or `open` failed, for a person: `no such file`, `too many levels of
  /// symbolic links`, or `permission denied or unreadable`.
  private static func openFailure(_ code: Int32) -> String {
    switch code {
    case ENOENT, ENOTDIR: return "no such file"
    case ELOOP: return "too many levels of symbolic links (a link that leads back to itself)"
    default: return "permission denied or unreadable"
    }
  }

  /// Throws unless `info` describes a regular file: a folder, a FIFO, a device or a socket
  /// is refused by name.
  private static func requireRegular(_ path: String, _ info: stat) throws {
    let type = info.st_mode & S_IFMT
    guard type != S_IFREG else { return }
    let what: String
    switch type {
    case S_IFDIR: what = "is a folder, not a file"
    case S_IFIFO: what = "is a FIFO (named pipe), not a regular file"
    case S_IFCHR, S_IFBLK: what = "is a device, not a regular file"
    case S_IFSOCK: what = "is a socket, not a regular file"
    default: what = "is not a regular file"
    }
    throw InputFileError(path: path, reason: what)
  }

  /// The error for a file over `InputLimits.maximumFileBytes` (`size`: its size, or the
  /// bytes read so far from a stream that goes on).
  package static func tooLarge(_ path: String, size: Int) -> InputFileError {
    InputFileError(
      path: path,
      reason:
        "the file is \(size) bytes, more than the limit of \(InputLimits.maximumFileBytes) bytes (2 GiB) for one input file; split it"
    )
  }

  /// Writes `bytes` to `path` atomically: first to a temporary file in the same folder,
  /// then renamed over `path`, so a reader never sees a half-written file
  /// (`AtomicFile.write`).
  ///
  /// - Throws: `OutputFileError` when the folder does not exist or is not writable, or
  ///   `path` exists and is not a regular file.
  public static func writeAtomically(_ bytes: some Sequence<UInt8>, to path: String) throws {
    try AtomicFile.write(Array(bytes), to: path)
  }

  /// Writes text atomically (UTF-8).
  public static func writeAtomically(_ text: String, to path: String) throws {
    try writeAtomically(Array(text.utf8), to: path)
  }
}
