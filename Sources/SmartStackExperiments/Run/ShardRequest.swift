/// What `batch --shard` asks for: a fixed shard `K/N`, or `env` / `env/N`, the shard a
/// scheduler gives the process in its environment.
///
/// Resolving is pure: the environment is passed in (the command reads `ProcessInfo` at its
/// edge), so every rule is tested on plain dictionaries. The result is an ordinary `Shard`,
/// so whatever a shard selects (cells today) an `env` shard selects the same.
///
/// The rules (docs/batch.md, "Shards from the scheduler"):
/// - **Slurm job array** (`SLURM_ARRAY_TASK_ID` set): Slurm sets `SLURM_ARRAY_TASK_ID`,
///   `_MIN`, `_MAX`, `_COUNT` and `_STEP` for every task of an array; the first four are
///   required (a partial set did not come from Slurm, and a guessed `_MIN` would run the
///   wrong cells), `_STEP` is 1 when unset. The array must be evenly spaced,
///   `MAX = MIN + (COUNT − 1) × STEP` (a range `A-B` or `A-B:S`; an index list such as
///   `1,3,7` is refused), and then `K = (ID − MIN) / STEP + 1`, `N = COUNT`: `--array=0-7`
///   and `--array=1-8` both give shards 1/8 … 8/8. With `env/N`, `N` must equal `COUNT`.
/// - **Kubernetes Indexed Job** (`JOB_COMPLETION_INDEX` set, 0-based): Kubernetes does not
///   tell the pod the number of completions, so it is given as `env/N` (the Job's
///   `spec.completions`); `K = JOB_COMPLETION_INDEX + 1`, which must be ≤ N.
/// - Slurm's variables win when both are set: `sbatch` exports the submitting shell's
///   environment, so a job submitted from a pod carries the pod's index, and the array
///   task is the innermost scheduler.
/// - Neither set: refused, naming the variables. An empty variable counts as unset; a value
///   that is not a whole number ≥ 0 is refused.
public enum ShardRequest: Sendable, Hashable, CustomStringConvertible {
  case fixed(Shard)
  /// `env` (count nil) or `env/N`.
  case environment(count: Int?)

  /// Slurm's array variables, in the order messages name them.
  public static let slurmTaskID = "SLURM_ARRAY_TASK_ID"
  public static let slurmMin = "SLURM_ARRAY_TASK_MIN"
  public static let slurmMax = "SLURM_ARRAY_TASK_MAX"
  public static let slurmCount = "SLURM_ARRAY_TASK_COUNT"
  public static let slurmStep = "SLURM_ARRAY_TASK_STEP"
  /// Kubernetes' index of a pod of an Indexed Job (0-based).
  public static let kubernetesIndex = "JOB_COMPLETION_INDEX"

  /// Parses `K/N` (1 ≤ K ≤ N), `env` or `env/N` (N ≥ 1).
  public init?(parsing text: String) {
    if text == "env" {
      self = .environment(count: nil)
    } else if text.hasPrefix("env/") {
      guard let n = Self.wholeNumber(String(text.dropFirst(4))), n >= 1 else { return nil }
      self = .environment(count: n)
    } else if let shard = Shard(parsing: text) {
      self = .fixed(shard)
    } else {
      return nil
    }
  }

  public var description: String {
    switch self {
    case .fixed(let shard): shard.description
    case .environment(nil): "env"
    case .environment(let count?): "env/\(count)"
    }
  }

  /// A shard and, for `env`, the variables it came from (for the run's log).
  public struct Resolved: Sendable, Hashable {
    public var shard: Shard
    /// Nil for a fixed shard; else e.g. `SLURM_ARRAY_TASK_ID=3 of 0-7 (SLURM_ARRAY_TASK_COUNT=8)`.
    public var origin: String?
  }

  /// Why `env` could not be resolved: a usage error whose message names the variables.
  public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
  }

  /// The shard this request names in `environment` (a fixed shard ignores it).
  public func resolve(environment: [String: String]) throws(Problem) -> Resolved {
    switch self {
    case .fixed(let shard):
      return Resolved(shard: shard, origin: nil)
    case .environment(let count):
      let set = environment.filter { !$0.value.isEmpty }
      if set[Self.slurmTaskID] != nil {
        return try Self.slurm(set, count: count, as: description)
      }
      if set[Self.kubernetesIndex] != nil {
        return try Self.kubernetes(set, count: count, as: description)
      }
      let partial = [Self.slurmMin, Self.slurmMax, Self.slurmCount, Self.slurmStep].filter { set[$0] != nil }
      var message =
        "--shard \(description): neither a Slurm job array (\(Self.slurmTaskID), \(Self.slurmMin), \(Self.slurmMax), \(Self.slurmCount)) nor a Kubernetes Indexed Job (\(Self.kubernetesIndex)) is in the environment; run it as a task of 'sbatch --array' or a pod of an Indexed Job, or give the shard as K/N"
      if !partial.isEmpty {
        message += " (\(partial.joined(separator: ", ")) \(partial.count == 1 ? "is" : "are") set, but not \(Self.slurmTaskID))"
      } else if let job = set["SLURM_JOB_ID"] {
        message += " (Slurm job \(job) is not an array job: submit it with sbatch --array=1-N)"
      }
      throw Problem(message: message)
    }
  }

  static func slurm(_ env: [String: String], count requested: Int?, as option: String) throws(Problem) -> Resolved {
    let required = [slurmTaskID, slurmMin, slurmMax, slurmCount]
    let missing = required.filter { env[$0] == nil }
    guard missing.isEmpty else {
      throw Problem(
        message:
          "--shard \(option): \(slurmTaskID) is set but \(missing.joined(separator: ", ")) \(missing.count == 1 ? "is" : "are") not; Slurm sets \(required.joined(separator: ", ")) for every task of a job array, so these did not come from Slurm: give the shard as K/N")
    }
    let id = try number(option, slurmTaskID, in: env)
    let min = try number(option, slurmMin, in: env)
    let max = try number(option, slurmMax, in: env)
    let count = try number(option, slurmCount, in: env)
    let step = env[slurmStep] == nil ? 1 : try number(option, slurmStep, in: env)
    let values = "\(slurmTaskID)=\(id), \(slurmMin)=\(min), \(slurmMax)=\(max), \(slurmCount)=\(count)"
      + (env[slurmStep] == nil ? "" : ", \(slurmStep)=\(step)")
    guard count >= 1, step >= 1 else {
      throw Problem(message: "--shard \(option): \(values): \(count < 1 ? slurmCount : slurmStep) must be at least 1")
    }
    guard min <= id, id <= max else {
      throw Problem(message: "--shard \(option): \(values): the task id is outside \(min)...\(max)")
    }
    let (span, overflow) = (count - 1).multipliedReportingOverflow(by: step)
    guard !overflow, max - min == span, (id - min) % step == 0 else {
      throw Problem(
        message:
          "--shard \(option): \(values): the array's task ids are not evenly spaced from \(min) to \(max) (an index list such as --array=1,3,7?); submit a range, --array=A-B or A-B:STEP, so that each task's shard follows from its id")
    }
    let k = (id - min) / step + 1
    if let requested, requested != count {
      throw Problem(
        message:
          "--shard \(option): the Slurm array has \(slurmCount)=\(count) tasks, not \(requested); give --shard env, or make N the array's size")
    }
    let range = step == 1 ? "\(min)-\(max)" : "\(min)-\(max):\(step)"
    return Resolved(
      shard: Shard(index: k, count: count)!, origin: "\(slurmTaskID)=\(id) of --array=\(range) (\(slurmCount)=\(count))")
  }

  static func kubernetes(_ env: [String: String], count: Int?, as option: String) throws(Problem) -> Resolved {
    let index = try number(option, kubernetesIndex, in: env)
    guard let count else {
      throw Problem(
        message:
          "--shard \(option): \(kubernetesIndex)=\(index) is set (a Kubernetes Indexed Job) but Kubernetes does not tell a pod the number of completions: give it as --shard env/N, N the Job's spec.completions")
    }
    guard index < count else {
      throw Problem(
        message:
          "--shard \(option): \(kubernetesIndex)=\(index) is outside 0...\(count - 1); N must be the Job's spec.completions")
    }
    return Resolved(shard: Shard(index: index + 1, count: count)!, origin: "\(kubernetesIndex)=\(index) of \(count) completions")
  }

  /// The value of `name` as a whole number ≥ 0, or a problem quoting it.
  static func number(_ option: String, _ name: String, in env: [String: String]) throws(Problem) -> Int {
    let text = env[name] ?? ""
    guard let value = wholeNumber(text) else {
      throw Problem(message: "--shard \(option): \(name)='\(text)' is not a whole number >= 0")
    }
    return value
  }

  /// Decimal digits only (no sign, no spaces), fitting an `Int`.
  static func wholeNumber(_ text: String) -> Int? {
    guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
      return nil
    }
    return Int(text)
  }
}
