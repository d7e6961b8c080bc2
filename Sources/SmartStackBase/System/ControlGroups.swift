import Foundation

/// The Linux control groups (cgroups) that bind this process: how the limits of a
/// container, a Slurm job or a Kubernetes pod are found (`MemoryLimit`, `AvailableCores`).
///
/// For a controller (`memory`, `cpu`), cgroup v1 and v2:
/// 1. `/proc/self/cgroup` names the process's cgroup in each hierarchy: v2's line is
///    `0::PATH`, v1's line for the controller `N:…CONTROLLER…:PATH`.
/// 2. `/proc/self/mountinfo` says where each hierarchy is mounted (`cgroup2`, or `cgroup`
///    with the controller among its options) and which of its folders is the mount's root.
/// 3. The cgroup's folder is the mount point joined with PATH less the mount's root. Where
///    that folder does not exist (a container shown the host's PATH with its own cgroup
///    at the mount's root), the first that exists of PATH with its leading components
///    dropped one at a time, down to the mount point itself.
/// 4. A limit binds when it is set on that folder or any folder above it up to the mount
///    point, since a parent's limit binds its children: the smallest counts.
package enum ControlGroups {
  /// The smallest of `value(text, folder, version2)` over every folder that binds the
  /// process for `controller` (steps 1–4 of the type) and holds the limit file
  /// `file(version2)`, whose text is `text`; nil when none gives one. That file's
  /// presence also says a folder exists (step 3). `read` gives a file's text, nil when it
  /// does not exist; each limit file is read once.
  package static func smallest<T: Comparable>(
    controller: String, cgroupFile: String, mountInfo: String, file: (Bool) -> String,
    read: (String) -> String?, value: (_ text: String, _ folder: String, _ version2: Bool) -> T?
  ) -> T? {
    var limit: T? = nil
    for line in cgroupFile.split(separator: "\n") {
      let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
      guard fields.count == 3 else { continue }
      let version2 = fields[0] == "0" && fields[1].isEmpty
      guard version2 || fields[1].split(separator: ",").contains(Substring(controller)) else {
        continue
      }
      let path = String(fields[2])
      for mount in mounts(mountInfo, controller: controller) where mount.version2 == version2 {
        let name = file(version2)
        // The text the existence check read last: the cgroup's own folder's, when it has one.
        var readLast: (folder: String, text: String)? = nil
        let bound = folders(of: path, in: mount) { folder in
          guard let text = read(folder + "/" + name) else { return false }
          readLast = (folder, text)
          return true
        }
        for folder in bound {
          let text = readLast?.folder == folder ? readLast?.text : read(folder + "/" + name)
          guard let text, let found = value(text, folder, version2) else { continue }
          limit = min(limit ?? found, found)
        }
      }
    }
    return limit
  }

  /// A cgroup mount: where it is, which folder of its hierarchy is its root, which version.
  struct Mount: Equatable {
    var root: String
    var point: String
    var version2: Bool
  }

  /// The cgroup2 mounts and the cgroup v1 mounts with the controller `controller` (e.g.
  /// `memory`, `cpu`) of `mountInfo`.
  static func mounts(_ mountInfo: String, controller: String) -> [Mount] {
    var result: [Mount] = []
    for line in mountInfo.split(separator: "\n") {
      let fields = line.split(separator: " ")
      guard let dash = fields.firstIndex(of: "-"), dash >= 6, fields.count >= dash + 4 else {
        continue
      }
      let type = fields[dash + 1]
      let version2 = type == "cgroup2"
      let controllers = fields[dash + 3].split(separator: ",")
      guard version2 || (type == "cgroup" && controllers.contains(Substring(controller))) else {
        continue
      }
      result.append(
        Mount(root: unescape(fields[3]), point: unescape(fields[4]), version2: version2))
    }
    return result
  }

  /// The folders whose limits bind the cgroup `path` of `mount`: its own folder (step 3 of
  /// the type) and every folder above it up to the mount point, innermost first.
  static func folders(of path: String, in mount: Mount, exists: (String) -> Bool) -> [String] {
    var relative = path
    if mount.root != "/" {
      if path == mount.root {
        relative = "/"
      } else if path.hasPrefix(mount.root + "/") {
        relative = String(path.dropFirst(mount.root.count))
      }
    }
    let components = relative.split(separator: "/").map(String.init)
    let point =
      mount.point.hasSuffix("/") && mount.point.count > 1
      ? String(mount.point.dropLast()) : mount.point
    func folder(_ parts: ArraySlice<String>) -> String {
      parts.isEmpty ? point : point + "/" + parts.joined(separator: "/")
    }
    // The first existing folder of `components` with its leading components dropped.
    var own = components[...]
    while !own.isEmpty && !exists(folder(own)) { own = own.dropFirst() }
    var result = [folder(own)]
    while !own.isEmpty {
      own = own.dropLast()
      result.append(folder(own))
    }
    return result
  }

  /// A mountinfo path with its octal escapes (`\040` for a space) decoded.
  static func unescape(_ field: Substring) -> String {
    guard field.contains("\\") else { return String(field) }
    var bytes: [UInt8] = []
    var utf8 = Array(field.utf8)[...]
    while let byte = utf8.popFirst() {
      if byte == UInt8(ascii: "\\"), utf8.count >= 3,
        let code = UInt8(String(decoding: utf8.prefix(3), as: UTF8.self), radix: 8)
      {
        bytes.append(code)
        utf8 = utf8.dropFirst(3)
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
