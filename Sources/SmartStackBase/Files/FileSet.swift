import Foundation

/// Several output files, in any folders, replaced as one set: the outputs of one
/// `smartstack import` (donation log, visit log, widget log).
///
/// POSIX renames one file at a time, and files in different folders cannot even share a
/// staging folder (`OutputSet`'s protocol), so the set is committed by a record instead:
///
/// 1. **Stage**: each file is written (and `fsync`ed) to `.NAME.tmp-PID` beside its
///    target. A kill or a failed write here leaves every target as it was.
/// 2. **Prepare**: beside every target but the first, a record `.NAME.set` names the
///    first target's record and every (target, staged file) pair.
/// 3. **Commit**: the same record beside the first target (its creation, one `rename`,
///    is the moment the new set replaces the old one).
/// 4. **Move**: each staged file is renamed onto its target; then the other records are
///    removed, the first target's last.
///
/// While the first target's record exists, the set is committed but maybe not moved in:
/// a target may be new beside another that is still old. `recover(_:)`, which an import
/// calls for its targets before anything else (even an import that then fails on its
/// input), finishes such a move, or, when the first record is missing, discards an
/// uncommitted set's staged files and records. Every reader of the toolkit
/// (`FileIO.readBytes`) refuses a target of a committed, unmoved set (`pendingError(_:)`)
/// with the command that finishes it, so no toolkit command reads a mix.
///
/// Two imports writing the same targets at the same time are kept apart by the caller's
/// `OutputFilesLock` (the second is refused); `FileSet` itself takes no lock.
public enum FileSet {
  /// The first line of a record.
  static let header = "smartstack file set 1"

  /// One target and where its new bytes are staged.
  struct Entry: Equatable {
    var target: String
    var staged: String
  }

  /// A parsed record: the commit record's path and the set's entries.
  struct Record {
    var commit: String
    var entries: [Entry]
  }

  /// The record beside `target`: `DIR/.NAME.set`.
  public static func recordPath(_ target: String) -> String {
    let (folder, name) = split(absolute(target))
    return folder + "/." + name + ".set"
  }

  /// Writes `files` (each a target path and its bytes) as one set (steps 1–4 above),
  /// after `recover`ing what an interrupted set left at those targets.
  ///
  /// - Throws: `OutputFileError` (before the commit: every target is as it was).
  public static func publish(_ files: [(path: String, bytes: [UInt8])]) throws {
    guard let first = files.first else { return }
    for file in files {
      try OutputPath.checkFile(file.path)
      if file.path.contains("\n") || file.path.contains("\t") {
        throw OutputFileError(path: file.path, reason: "a path with a line feed or tab cannot be recorded in a file set")
      }
    }
    _ = try recover(files.map(\.path))
    var entries: [Entry] = []
    func discard() {
      for entry in entries { unlink(entry.staged) }
      for file in files.dropFirst() { unlink(recordPath(file.path)) }
    }
    do {
      for file in files {
        let target = absolute(file.path)
        let (folder, name) = split(target)
        if PathKind(target) == .folder { throw OutputFileError(path: file.path, reason: "is a folder, not a file") }
        guard PathKind(folder) == .folder else {
          throw OutputFileError(path: file.path, reason: "the folder \(folder) does not exist")
        }
        let staged = folder + "/." + name + ".tmp-\(getpid())"
        do {
          try AtomicFile.create(staged, bytes: file.bytes, name: name, sync: true)
        } catch {
          throw OutputFileError(path: file.path, reason: "\(error.reason) (the previous files are left as they were)")
        }
        entries.append(Entry(target: target, staged: staged))
        FaultInjection.reached("import-stage")
      }
      let record = Record(commit: recordPath(first.path), entries: entries)
      let text = Array(encode(record).utf8)
      for file in files.dropFirst() {
        try AtomicFile.write(text, to: recordPath(file.path), sync: true)
      }
      try AtomicFile.write(text, to: record.commit, sync: true)  // the commit
    } catch {
      discard()
      throw error
    }
    syncFolder(of: first.path)
    FaultInjection.reached("import-commit")
    try move(Record(commit: recordPath(first.path), entries: entries))
  }

  /// Finishes or discards what an interrupted `publish` left at any of `targets`: a
  /// committed set is moved in (each staged file still there renamed onto its target),
  /// an uncommitted one's staged files removed; then its records are removed. Also
  /// removes `.NAME.tmp-PID` and `..NAME.set.tmp-PID` files of those targets whose
  /// process is gone.
  ///
  /// - Returns: a note per set finished or discarded, for the user.
  /// - Throws: `OutputFileError` when a rename fails.
  @discardableResult
  public static func recover(_ targets: [String]) throws -> [String] {
    var notes: [String] = []
    for target in targets {
      let path = recordPath(target)
      guard PathKind(path) == .regularFile else { continue }
      guard let record = read(path) else {
        unlink(path)
        continue
      }
      if PathKind(record.commit) == .regularFile {
        try move(record)
        notes.append(
          "finished putting in place the files of an interrupted import: "
            + record.entries.map(\.target).joined(separator: ", "))
      } else {
        for entry in record.entries { unlink(entry.staged) }
        unlink(path)
        notes.append(
          "removed the unfinished files of an interrupted import: "
            + record.entries.map(\.target).joined(separator: ", "))
      }
    }
    for target in targets {
      removeDeadTemporaries(of: absolute(target))
      // The record is written through a temporary file too (`..NAME.set.tmp-PID`).
      removeDeadTemporaries(of: recordPath(target))
    }
    return notes
  }

  /// The error a reader gives for `path` when it is a target of a committed set not yet
  /// moved in (its record, and the set's commit record, exist); nil otherwise.
  public static func pendingError(_ path: String) -> InputFileError? {
    let recordPath = recordPath(path)
    guard PathKind(recordPath) == .regularFile, let record = read(recordPath),
      PathKind(record.commit) == .regularFile
    else { return nil }
    let targets = record.entries.map(\.target).joined(separator: ", ")
    return InputFileError(
      path: path,
      reason:
        "an import that writes it together with other files (\(targets)) was interrupted while putting them in place, so they may be of different imports; run that smartstack import again (it first finishes the interrupted one)"
    )
  }

  /// Step 4 for `record` (idempotent): renames the staged files still there, then
  /// removes the records, the commit record last.
  static func move(_ record: Record) throws {
    for entry in record.entries where PathKind(entry.staged) == .regularFile {
      guard rename(entry.staged, entry.target) == 0 else {
        throw OutputFileError(path: entry.target, reason: String(cString: strerror(errno)))
      }
      FaultInjection.reached("import-move")
    }
    for entry in record.entries {
      let path = recordPath(entry.target)
      if path != record.commit { unlink(path) }
    }
    unlink(record.commit)
    syncFolder(of: record.commit)
  }

  /// The record's text: the header, the commit record's path, then `TARGET<TAB>STAGED`
  /// per file, each line ending in a line feed.
  static func encode(_ record: Record) -> String {
    ([header, record.commit] + record.entries.map { $0.target + "\t" + $0.staged })
      .map { $0 + "\n" }.joined()
  }

  /// Reads a record; nil when it is not one (cut short, or not this format).
  static func read(_ path: String) -> Record? {
    guard let bytes = try? FileIO.readBytes(path), bytes.last == UInt8(ascii: "\n") else { return nil }
    let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
      .dropLast()
    guard lines.count >= 3, lines[0] == header, lines[1].hasPrefix("/") else { return nil }
    var entries: [Entry] = []
    for line in lines.dropFirst(2) {
      let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard parts.count == 2, parts[0].hasPrefix("/"), parts[1].hasPrefix("/") else { return nil }
      entries.append(Entry(target: String(parts[0]), staged: String(parts[1])))
    }
    return Record(commit: String(lines[1]), entries: entries)
  }

  /// Removes `.NAME.tmp-PID` beside `target` when no process `PID` exists (a killed
  /// import's staged file).
  static func removeDeadTemporaries(of target: String) {
    let (folder, name) = split(target)
    let prefix = "." + name + ".tmp-"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    for file in names.sorted() where file.hasPrefix(prefix) {
      guard let pid = Int32(file.dropFirst(prefix.count)), pid > 0, pid != getpid() else { continue }
      if kill(pid, 0) != 0 && errno == ESRCH { unlink(folder + "/" + file) }
    }
  }

  /// `path` made absolute against the current folder (not resolving links).
  static func absolute(_ path: String) -> String {
    path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
  }

  /// Folder and last component of an absolute path.
  static func split(_ path: String) -> (String, String) {
    guard let slash = path.lastIndex(of: "/") else { return (".", path) }
    let folder = String(path[..<slash])
    return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
  }

  /// `fsync` of the folder holding `path`.
  static func syncFolder(of path: String) {
    OutputSet.syncFolder(split(absolute(path)).0)
  }
}
