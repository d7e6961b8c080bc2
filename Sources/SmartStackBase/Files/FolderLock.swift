import Foundation

/// A folder that another process is writing: the run is refused at once (exit 75).
public struct FolderBusyError: Error, Sendable, CustomStringConvertible {
  /// The output folder.
  public var folder: String
  /// The process id written into the lock file by its holder; nil when it has not been
  /// written yet (the holder is between taking the lock and writing its id).
  public var holder: Int32?

  public var description: String {
    let who = holder.map { "process \($0)" } ?? "another process"
    return
      "\(folder): in use by \(who), which holds \(folder)/\(FolderLock.fileName); wait for it to finish (or stop it), or give another --out folder"
  }
}

/// An exclusive advisory lock on an output folder, held for a whole run.
///
/// The lock is `flock(LOCK_EX | LOCK_NB)` on the file `FOLDER/.lock`, created when
/// missing. The holder writes its process id and a newline into the file after taking the
/// lock. A second run on the same folder does not wait: it reads the id and is refused
/// with `FolderBusyError`. The kernel releases the lock when the holder's descriptor
/// closes, so every exit path releases it: a return, an error, `exit`, a signal,
/// `kill -9`. `release()` (or deinit) removes the file while still holding the lock, so a
/// run that finishes leaves no `.lock`; a killed run leaves it, unlocked, with its id, and
/// the next run takes it over. Because the file can be removed, a process that locked it
/// checks afterwards that the path still names the file it locked, and starts again if
/// not (else two processes could each lock a different file of the same name). The
/// descriptor is close-on-exec, so child processes never inherit the lock. Only
/// processes that take this lock are kept out: it is advisory.
public final class FolderLock: @unchecked Sendable {
  public static let fileName = ".lock"

  public let folder: String
  private var descriptor: Int32 = -1

  /// Takes the lock of `folder`, which must exist.
  ///
  /// - Throws: `FolderBusyError` when another open lock holds it; `OutputFileError` when
  ///   the lock file cannot be created or is not a regular file.
  public init(folder: String) throws {
    self.folder = folder
    do {
      descriptor = try AdvisoryLockFile.acquire(folder + "/" + Self.fileName)
    } catch let busy as AdvisoryLockFile.Busy {
      throw FolderBusyError(folder: folder, holder: busy.holder)
    }
  }

  /// Removes the lock file and releases the lock (also done on deinit).
  public func release() {
    guard descriptor >= 0 else { return }
    unlink(folder + "/" + Self.fileName)
    close(descriptor)
    descriptor = -1
  }

  deinit { release() }
}

/// The protocol of `FolderLock`, for any lock file: `flock(LOCK_EX | LOCK_NB)` on `path`
/// (created when missing, never through a symbolic link), checked to still name the file
/// locked (else taken again), then the holder's process id and a newline written into it.
/// Release: unlink the path, then close the descriptor.
enum AdvisoryLockFile {
  /// Another open descriptor holds the lock; `holder` is the id it wrote, if any yet.
  struct Busy: Error {
    var holder: Int32?
  }

  /// Takes the lock of `path`; returns the locked, close-on-exec descriptor.
  ///
  /// - Throws: `Busy`; `OutputFileError` when the file cannot be created, locked or
  ///   written, or is not a regular file.
  static func acquire(_ path: String) throws -> Int32 {
    var descriptor: Int32 = -1
    while true {
      try OutputPath.checkFile(path)
      let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
      guard fd >= 0 else {
        throw OutputFileError(path: path, reason: String(cString: strerror(errno)))
      }
      var result: Int32
      repeat { result = flock(fd, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
      guard result == 0 else {
        let busy = errno == EWOULDBLOCK
        let reason = String(cString: strerror(errno))
        let holder = busy ? Self.holder(fd) : nil
        close(fd)
        if busy { throw Busy(holder: holder) }
        throw OutputFileError(path: path, reason: "cannot lock it: \(reason)")
      }
      var locked = stat()
      var named = stat()
      guard fstat(fd, &locked) == 0, lstat(path, &named) == 0, locked.st_ino == named.st_ino,
        locked.st_dev == named.st_dev
      else {
        close(fd)  // the holder removed it between our open and flock: take the new one
        continue
      }
      descriptor = fd
      break
    }
    let id = Array("\(getpid())\n".utf8)
    guard ftruncate(descriptor, 0) == 0, pwrite(descriptor, id, id.count, 0) == id.count else {
      let reason = String(cString: strerror(errno))
      unlink(path)
      close(descriptor)
      throw OutputFileError(path: path, reason: reason)
    }
    return descriptor
  }

  /// The process id in the lock file, if it holds one.
  private static func holder(_ fd: Int32) -> Int32? {
    var buffer = [UInt8](repeating: 0, count: 32)
    let n = pread(fd, &buffer, buffer.count, 0)
    guard n > 0 else { return nil }
    let text = String(decoding: buffer[0..<n], as: UTF8.self)
    return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
  }
}
