import SmartStackBase

/// A compressed or archived input that cannot be unpacked: corrupt, truncated, of an
/// unsupported kind, larger than allowed, or without the member asked for.
///
/// These inputs are binary, so the error names a byte offset rather than a line and
/// column: `lsapp.tar.gz: gzip: CRC-32 mismatch ... (the file is corrupt)`.
public struct ArchiveError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong, for callers and tests that branch on it.
  public enum Kind: String, Sendable, Hashable {
    /// The data breaks the format (bad code, bad checksum, bad header).
    case corrupt
    /// The data ends before the format says it should.
    case truncated
    /// A valid feature this reader does not support (e.g. a compression method other
    /// than deflate).
    case unsupported
    /// The data expands beyond the allowed number of bytes (a decompression bomb, or a
    /// limit set too low).
    case tooLarge
    /// The archive holds no member that can be imported, or not the one asked for.
    case memberNotFound
    /// The archive holds several members that could be imported and none was chosen.
    case ambiguousMember
  }

  public var kind: Kind
  /// The file as the user named it; empty until the error leaves the decoder.
  public var file: String
  /// What is wrong, in words a person can act on (no trailing period); byte offsets
  /// are given inside it where they help.
  public var message: String

  public init(_ kind: Kind, file: String = "", _ message: String) {
    self.kind = kind
    self.file = file
    self.message = message
  }

  /// `FILE: message`, or the message alone when no file is known; control characters
  /// (a file name's or the data's escape sequences) escaped on each line
  /// (`TerminalText.escapingControls`), the line ends between problems kept.
  public var description: String {
    let text = file.isEmpty ? message : "\(TerminalText.escapingControls(file)): \(message)"
    return text.split(separator: "\n", omittingEmptySubsequences: false)
      .map { TerminalText.escapingControls(String($0)) }.joined(separator: "\n")
  }

  /// The same error, naming `file`.
  public func naming(_ file: String) -> ArchiveError {
    var copy = self
    copy.file = file
    return copy
  }
}
