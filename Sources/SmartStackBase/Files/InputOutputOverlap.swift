import Foundation

/// Where a path really leads: every symbolic link in it followed (`realpath(3)`).
public enum ResolvedPath {
  /// `path` resolved through links when it exists; when it does not, its nearest
  /// existing ancestor resolved and the missing components appended (an output about to
  /// be created, perhaps with its folders); `.` and `..` are first removed as written.
  public static func of(_ path: String) -> String {
    if let real = realPath(path) { return real }
    var missing: [String] = []
    var url = URL(fileURLWithPath: path).standardizedFileURL
    while url.path != "/" {
      missing.insert(url.lastPathComponent, at: 0)
      url = url.deletingLastPathComponent()
      if let folder = realPath(url.path) {
        return (folder == "/" ? "" : folder) + "/" + missing.joined(separator: "/")
      }
    }
    return "/" + missing.joined(separator: "/")
  }

  private static func realPath(_ path: String) -> String? {
    guard let pointer = realpath(path, nil) else { return nil }
    defer { free(pointer) }
    return String(cString: pointer)
  }
}

/// Refuses an output that would replace an input, however it is named: the check of
/// every importer's outputs against its inputs (docs/importers.md, "Evidence").
///
/// An input stands for itself and for its SQLite companions, `-wal`, `-shm` and
/// `-journal` (whether they exist or not: writing one would change what the database
/// holds), both beside the path as given and beside the file it resolves to through links.
/// An input that is a folder (a Biome streams folder) stands for everything inside it. An
/// output is compared after resolving its links, and an existing output also by device
/// and inode (a hard link to an input).
public enum InputOutputOverlap {
  /// The files beside a SQLite database that hold part of it.
  public static let companionSuffixes = ["-wal", "-shm", "-journal"]

  /// The problem of the first output that would replace an input, or nil:
  /// `--out 'ev/e.db-wal' would overwrite the input's write-ahead log 'ev/e.db-wal' (input 'l.db')`.
  ///
  /// - Parameters:
  ///   - inputs: the input paths as the user gave them.
  ///   - outputs: each output with the option that names it (`--out`).
  public static func problem(inputs: [String], outputs: [(option: String, path: String)]) -> String? {
    for (option, output) in outputs {
      let resolved = ResolvedPath.of(output)
      for input in inputs {
        let realInput = ResolvedPath.of(input)
        if isFolder(realInput), resolved == realInput || resolved.hasPrefix(realInput + "/") {
          return "\(option) '\(output)' is inside the input folder '\(input)'; an import never writes into its input"
        }
        for base in [input, realInput] {
          for suffix in [""] + companionSuffixes {
            let protected = base + suffix
            if resolved == ResolvedPath.of(protected) || sameFile(output, protected) {
              let what = suffix.isEmpty ? "the input" : "the input's \(companionName(suffix))"
              return "\(option) '\(output)' would overwrite \(what) '\(protected)'"
                + (base == input && suffix.isEmpty ? "" : " (input '\(input)')")
            }
          }
        }
      }
    }
    return nil
  }

  static func companionName(_ suffix: String) -> String {
    switch suffix {
    case "-wal": "write-ahead log"
    case "-shm": "shared-memory file"
    default: "rollback journal"
    }
  }

  static func isFolder(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
  }

  /// True when both paths exist and are one file (same device and inode).
  static func sameFile(_ a: String, _ b: String) -> Bool {
    var x = stat()
    var y = stat()
    guard stat(a, &x) == 0, stat(b, &y) == 0 else { return false }
    return x.st_dev == y.st_dev && x.st_ino == y.st_ino
  }
}
