import Foundation

/// How much memory this process may use: the machine's, or less when a Linux control
/// group limits it (a container, a Slurm job with `--mem`, a Kubernetes pod's
/// `resources.limits.memory`, a systemd unit's `MemoryMax`). What a default that scales
/// with memory (`replay --max-memory`'s) is a share of: the machine's memory alone would
/// let a job with a 4 GiB limit on a 256 GiB node hold 64 GiB and be killed.
///
/// **The cgroup limit** (`cgroupLimit(cgroupFile:mountInfo:read:)`), cgroup v1 and v2:
/// 1. `/proc/self/cgroup` names the process's cgroup in each hierarchy: v2's line is
///    `0::PATH`, v1's memory line `N:…memory…:PATH`.
/// 2. `/proc/self/mountinfo` says where each hierarchy is mounted (`cgroup2`, or `cgroup`
///    with the `memory` option) and which of its folders is the mount's root.
/// 3. The cgroup's folder is the mount point joined with PATH less the mount's root. Where
///    that folder does not exist (a container shown the host's PATH with its own cgroup
///    at the mount's root), the first that exists of PATH with its leading components
///    dropped one at a time, down to the mount point itself.
/// 4. The limit is the smallest of `memory.max` (v2; `max` is none) and
///    `memory.limit_in_bytes` (v1; 2^62 or more is none) over that folder and every
///    folder above it up to the mount point, since a parent's limit binds its children.
///
/// **A Slurm job's memory** (`slurmLimit(_:)`), for clusters that enforce `--mem` by
/// watching the job's memory rather than with a cgroup: `SLURM_MEM_PER_NODE` (sbatch's
/// `--mem`, in MiB), else `SLURM_MEM_PER_CPU` (`--mem-per-cpu`, MiB) times
/// `SLURM_CPUS_ON_NODE`, from the job's environment.
///
/// Anything missing or unreadable counts as no limit: the machine's memory.
package enum MemoryLimit {
  /// The bytes this process may use: the smallest of the machine's memory
  /// (`ProcessInfo.physicalMemory`), its cgroup limit and a Slurm job's memory in
  /// `environment`. Reads a few small files.
  package static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> UInt64 {
    var limit = ProcessInfo.processInfo.physicalMemory
    if let cgroup = readText("/proc/self/cgroup"), let mounts = readText("/proc/self/mountinfo"),
      let bytes = cgroupLimit(cgroupFile: cgroup, mountInfo: mounts, read: readText)
    {
      limit = min(limit, bytes)
    }
    if let bytes = slurmLimit(environment) { limit = min(limit, bytes) }
    return limit
  }

  /// A Slurm job's memory in bytes from its environment (see the type); nil outside a job
  /// or when the variables are not positive whole numbers.
  package static func slurmLimit(_ environment: [String: String]) -> UInt64? {
    func mebibytes(_ name: String) -> UInt64? {
      guard let text = environment[name], let value = UInt64(text), value > 0, value < 1 << 40 else { return nil }
      return value
    }
    if let node = mebibytes("SLURM_MEM_PER_NODE") { return node << 20 }
    if let cpu = mebibytes("SLURM_MEM_PER_CPU"), let cpus = mebibytes("SLURM_CPUS_ON_NODE"), cpus < 1 << 20 {
      return (cpu * cpus) << 20
    }
    return nil
  }

  /// The cgroup memory limit described on the type, from the text of `/proc/self/cgroup`
  /// and `/proc/self/mountinfo`; `read` gives a file's text, nil when it does not exist.
  /// Nil when no limit applies.
  package static func cgroupLimit(cgroupFile: String, mountInfo: String, read: (String) -> String?) -> UInt64? {
    var limit: UInt64? = nil
    for line in cgroupFile.split(separator: "\n") {
      let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
      guard fields.count == 3 else { continue }
      let version2 = fields[0] == "0" && fields[1].isEmpty
      guard version2 || fields[1].split(separator: ",").contains("memory") else { continue }
      let path = String(fields[2])
      for mount in mounts(mountInfo) where mount.version2 == version2 {
        let file = version2 ? "memory.max" : "memory.limit_in_bytes"
        for folder in folders(of: path, in: mount, exists: { read($0 + "/" + file) != nil }) {
          guard let text = read(folder + "/" + file), let value = parseLimit(text) else { continue }
          limit = min(limit ?? value, value)
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

  /// The cgroup2 mounts and the cgroup v1 mounts with the memory controller of `mountInfo`.
  static func mounts(_ mountInfo: String) -> [Mount] {
    var result: [Mount] = []
    for line in mountInfo.split(separator: "\n") {
      let fields = line.split(separator: " ")
      guard let dash = fields.firstIndex(of: "-"), dash >= 6, fields.count >= dash + 4 else { continue }
      let type = fields[dash + 1]
      let version2 = type == "cgroup2"
      guard version2 || (type == "cgroup" && fields[dash + 3].split(separator: ",").contains("memory")) else { continue }
      result.append(Mount(root: unescape(fields[3]), point: unescape(fields[4]), version2: version2))
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
    let point = mount.point.hasSuffix("/") && mount.point.count > 1 ? String(mount.point.dropLast()) : mount.point
    func folder(_ parts: ArraySlice<String>) -> String { parts.isEmpty ? point : point + "/" + parts.joined(separator: "/") }
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

  /// A limit file's value: nil for none (`max`, 2^62 or more, or text that is no number).
  static func parseLimit(_ text: String) -> UInt64? {
    guard let value = UInt64(text.trimmingCharacters(in: .whitespacesAndNewlines)), value < 1 << 62 else { return nil }
    return value
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

  /// The text of a small file (a few KiB at most: `/proc` and cgroup files); nil when it
  /// cannot be read.
  static func readText(_ path: String) -> String? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    guard let data = try? handle.read(upToCount: 1 << 20) else { return nil }
    return String(decoding: data, as: UTF8.self)
  }
}
