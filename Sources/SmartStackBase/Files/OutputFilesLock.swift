import Foundation

/// An output file that another process is writing (an import of the same target): the
/// run is refused at once (exit 75).
public struct OutputFileBusyError: Error, Sendable, CustomStringConvertible {
  /// The output file, as the user named it.
  public var file: String
  /// The lock file that is held.
  public var lockFile: String
  /// The process id its holder wrote; nil when not written yet.
  public var holder: Int32?

  public var description: String {
    let who = holder.map { "process \($0)" } ?? "another process"
    return "\(file): being written by \(who), which holds \(lockFile); wait for it to finish (or stop it), or give another output path"
  }
}

/// Exclusive advisory locks on output files, held while an import recovers, stages,
/// commits and moves its `FileSet`, so that two imports writing the same file cannot
/// interleave their sets (one's donation log beside the other's visit log).
///
/// One lock file per target, `DIR/.NAME.lock` beside it, taken with `FolderLock`'s
/// protocol (`flock(LOCK_EX | LOCK_NB)`, the holder's process id written in, removed on
/// release; the kernel releases a killed holder's lock, and the next run takes the file
/// over). Targets are locked in order of their absolute paths; a target already locked
/// refuses the run at once with `OutputFileBusyError`, after releasing the locks taken.
/// Two imports with no target in common never wait for each other. A target whose folder
/// does not exist is not locked (its write is refused anyway).
public final class OutputFilesLock: @unchecked Sendable {
  private var held: [(path: String, descriptor: Int32)] = []

  /// The lock file of `target`: `DIR/.NAME.lock`.
  public static func lockPath(_ target: String) -> String {
    let (folder, name) = FileSet.split(FileSet.absolute(target))
    return folder + "/." + name + ".lock"
  }

  /// Locks every one of `targets` (duplicates once).
  ///
  /// - Throws: `OutputFileBusyError`; `OutputFileError` when a lock file cannot be made.
  public init(_ targets: [String]) throws {
    let ordered = Dictionary(targets.map { (Self.lockPath($0), $0) }, uniquingKeysWith: { first, _ in first })
      .sorted { $0.key < $1.key }
    for (path, target) in ordered {
      // A target whose folder is missing has nothing to guard: the write refuses it
      // ("the folder … does not exist"), and no lock file is made for it.
      guard PathKind(FileSet.split(path).0) == .folder else { continue }
      do {
        held.append((path, try AdvisoryLockFile.acquire(path)))
      } catch let busy as AdvisoryLockFile.Busy {
        release()
        throw OutputFileBusyError(file: target, lockFile: path, holder: busy.holder)
      } catch {
        release()
        throw error
      }
    }
  }

  /// Removes the lock files and releases the locks (also done on deinit).
  public func release() {
    for (path, descriptor) in held.reversed() {
      unlink(path)
      close(descriptor)
    }
    held = []
  }

  deinit { release() }
}
