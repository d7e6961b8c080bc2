import Foundation

/// An input file that cannot be opened or read (missing, a folder, no permission).
public struct InputFileError: Error, Sendable, CustomStringConvertible {
  public var path: String
  public var reason: String
  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }
  public var description: String { "\(path): cannot read: \(reason)" }
}

/// An output file or folder that cannot be created or written.
public struct OutputFileError: Error, Sendable, CustomStringConvertible {
  public var path: String
  public var reason: String
  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }
  public var description: String { "\(path): cannot write: \(reason)" }
}

/// Whole-file reads and atomic writes.
public enum FileIO {
  /// Reads a whole file as bytes.
  ///
  /// The bytes go straight from the file into the array's storage (one copy, not two
  /// through `Data`); files whose size is unknown beforehand (pipes, `/proc`) are read
  /// on to their end.
  ///
  /// - Throws: `InputFileError` when the path is missing, a folder, unreadable, or larger
  ///   than `InputLimits.maximumFileBytes` (refused before reading, not after running out
  ///   of memory).
  public static func readBytes(_ path: String) throws -> [UInt8] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw InputFileError(path: path, reason: "no such file")
    }
    if isDirectory.boolValue { throw InputFileError(path: path, reason: "is a folder, not a file") }
    let unreadable = InputFileError(path: path, reason: "permission denied or unreadable")
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw unreadable }
    defer { close(descriptor) }
    var info = stat()
    guard fstat(descriptor, &info) == 0 else { throw unreadable }
    let expected = max(0, Int(info.st_size))
    guard expected <= InputLimits.maximumFileBytes else { throw tooLarge(path, size: expected) }
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

  /// The error for a file over `InputLimits.maximumFileBytes` (`size`: its size, or the
  /// bytes read so far from a stream that goes on).
  private static func tooLarge(_ path: String, size: Int) -> InputFileError {
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
