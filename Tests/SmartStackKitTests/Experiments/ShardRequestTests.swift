import Testing

import SmartStackExperiments

/// `--shard K/N | env | env/N` resolved over environments given as plain dictionaries.
@Suite("Shard from the scheduler's environment")
struct ShardRequestTests {
  /// A Slurm array task's variables, as Slurm sets them.
  static func slurm(id: Int, min: Int, max: Int, count: Int, step: Int? = 1) -> [String: String] {
    var env = [
      "SLURM_JOB_ID": "1234", "SLURM_ARRAY_JOB_ID": "1230",
      "SLURM_ARRAY_TASK_ID": "\(id)", "SLURM_ARRAY_TASK_MIN": "\(min)",
      "SLURM_ARRAY_TASK_MAX": "\(max)", "SLURM_ARRAY_TASK_COUNT": "\(count)",
    ]
    if let step { env["SLURM_ARRAY_TASK_STEP"] = "\(step)" }
    return env
  }

  static func resolve(_ text: String, _ env: [String: String]) throws -> Shard {
    try #require(ShardRequest(parsing: text)).resolve(environment: env).shard
  }

  /// The message of the problem `text` meets in `env`.
  static func problem(_ text: String, _ env: [String: String]) throws -> String {
    let request = try #require(ShardRequest(parsing: text))
    do {
      let resolved = try request.resolve(environment: env)
      Issue.record("resolved to \(resolved.shard), expected a problem")
      return ""
    } catch {
      return error.message
    }
  }

  @Test func parsesTheThreeForms() {
    #expect(ShardRequest(parsing: "2/8") == .fixed(Shard(index: 2, count: 8)!))
    #expect(ShardRequest(parsing: "env") == .environment(count: nil))
    #expect(ShardRequest(parsing: "env/8") == .environment(count: 8))
    for bad in ["", "env/", "env/0", "env/-1", "env/+3", "env/ 3", "env:8", "ENV", "env/8/1", "0/3", "4/3", "1/"] {
      #expect(ShardRequest(parsing: bad) == nil, "\(bad)")
    }
    #expect(ShardRequest(parsing: "env/8")?.description == "env/8")
  }

  @Test func aFixedShardIgnoresTheEnvironment() throws {
    let resolved = try #require(ShardRequest(parsing: "2/3")).resolve(environment: Self.slurm(id: 0, min: 0, max: 7, count: 8))
    #expect(resolved.shard == Shard(index: 2, count: 3))
    #expect(resolved.origin == nil)
  }

  @Test func aSlurmArrayFromZeroOrOneGivesShardsOneToN() throws {
    for id in 0...7 {
      #expect(try Self.resolve("env", Self.slurm(id: id, min: 0, max: 7, count: 8)) == Shard(index: id + 1, count: 8))
      #expect(try Self.resolve("env", Self.slurm(id: id + 1, min: 1, max: 8, count: 8)) == Shard(index: id + 1, count: 8))
    }
    let resolved = try #require(ShardRequest(parsing: "env")).resolve(environment: Self.slurm(id: 3, min: 0, max: 7, count: 8))
    #expect(resolved.origin == "SLURM_ARRAY_TASK_ID=3 of --array=0-7 (SLURM_ARRAY_TASK_COUNT=8)")
    // One task is shard 1/1; a missing step is 1.
    #expect(try Self.resolve("env", Self.slurm(id: 5, min: 5, max: 5, count: 1)) == Shard(index: 1, count: 1))
    #expect(try Self.resolve("env", Self.slurm(id: 6, min: 5, max: 7, count: 3, step: nil)) == Shard(index: 2, count: 3))
  }

  @Test func aSteppedSlurmArrayCountsItsTasks() throws {
    // --array=0-10:2: tasks 0, 2, …, 10.
    for (k, id) in stride(from: 0, through: 10, by: 2).enumerated() {
      #expect(try Self.resolve("env", Self.slurm(id: id, min: 0, max: 10, count: 6, step: 2)) == Shard(index: k + 1, count: 6))
    }
    let origin = try #require(ShardRequest(parsing: "env")).resolve(environment: Self.slurm(id: 4, min: 0, max: 10, count: 6, step: 2)).origin
    #expect(origin == "SLURM_ARRAY_TASK_ID=4 of --array=0-10:2 (SLURM_ARRAY_TASK_COUNT=6)")
    // A step Slurm did not state cannot be assumed to be 1 when the ids say otherwise.
    #expect(try Self.problem("env", Self.slurm(id: 4, min: 0, max: 10, count: 6, step: nil)).contains("not evenly spaced"))
  }

  /// What Slurm 22.05 (Debian's slurm-wlm) set in the tasks of `sbatch --array=0-10:4` and
  /// `--array=1,3,7`: MAX is the last id, not the range's end; a list reports STEP 1.
  @Test func theValuesSlurmSetsResolveOrAreRefused() throws {
    for (k, id) in [0, 4, 8].enumerated() {
      #expect(try Self.resolve("env", Self.slurm(id: id, min: 0, max: 8, count: 3, step: 4)) == Shard(index: k + 1, count: 3))
    }
    for id in [1, 3, 7] {
      #expect(try Self.problem("env", Self.slurm(id: id, min: 1, max: 7, count: 3, step: 1)).contains("not evenly spaced"))
    }
  }

  @Test func anIndexListOrInconsistentValuesAreRefused() throws {
    // --array=1,3,7: min 1, max 7, 3 tasks, whatever step Slurm reports.
    for step in [1, 2, 3] {
      let message = try Self.problem("env", Self.slurm(id: 3, min: 1, max: 7, count: 3, step: step))
      #expect(message.contains("not evenly spaced"), "\(message)")
      #expect(message.contains("--array=A-B or A-B:STEP"))
    }
    // An id between the steps.
    #expect(try Self.problem("env", Self.slurm(id: 3, min: 0, max: 10, count: 6, step: 2)).contains("not evenly spaced"))
    // An id outside MIN...MAX.
    #expect(
      try Self.problem("env", Self.slurm(id: 9, min: 0, max: 7, count: 8))
        == "--shard env: SLURM_ARRAY_TASK_ID=9, SLURM_ARRAY_TASK_MIN=0, SLURM_ARRAY_TASK_MAX=7, SLURM_ARRAY_TASK_COUNT=8, SLURM_ARRAY_TASK_STEP=1: the task id is outside 0...7")
    #expect(try Self.problem("env", Self.slurm(id: 0, min: 1, max: 8, count: 8)).contains("outside 1...8"))
    #expect(try Self.problem("env", Self.slurm(id: 0, min: 0, max: 0, count: 0)).contains("SLURM_ARRAY_TASK_COUNT must be at least 1"))
    #expect(try Self.problem("env", Self.slurm(id: 0, min: 0, max: 0, count: 1, step: 0)).contains("SLURM_ARRAY_TASK_STEP must be at least 1"))
    #expect(try Self.problem("env", Self.slurm(id: 5, min: 5, max: 3, count: 1)).contains("outside 5...3"))
    #expect(
      try Self.problem("env", Self.slurm(id: 0, min: 0, max: Int.max, count: Int.max, step: 3))
        .contains("not evenly spaced"))
  }

  @Test func aPartialSlurmSetIsRefusedNamingWhatIsMissing() throws {
    var env = Self.slurm(id: 2, min: 0, max: 7, count: 8)
    env["SLURM_ARRAY_TASK_MIN"] = nil
    env["SLURM_ARRAY_TASK_MAX"] = ""
    #expect(
      try Self.problem("env", env)
        == "--shard env: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_MAX are not; Slurm sets SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_MAX, SLURM_ARRAY_TASK_COUNT for every task of a job array, so these did not come from Slurm: give the shard as K/N"
    )
    let noID = Self.slurm(id: 2, min: 0, max: 7, count: 8).filter { $0.key != "SLURM_ARRAY_TASK_ID" }
    #expect(try Self.problem("env", noID).contains("(SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_MAX, SLURM_ARRAY_TASK_COUNT, SLURM_ARRAY_TASK_STEP are set, but not SLURM_ARRAY_TASK_ID)"))
  }

  @Test func malformedValuesAreRefusedQuotingThem() throws {
    for bad in ["x", "-1", "+1", " 1", "1.0", "99999999999999999999999"] {
      var env = Self.slurm(id: 1, min: 0, max: 7, count: 8)
      env["SLURM_ARRAY_TASK_COUNT"] = bad
      #expect(try Self.problem("env", env) == "--shard env: SLURM_ARRAY_TASK_COUNT='\(bad)' is not a whole number >= 0")
      #expect(try Self.problem("env/3", ["JOB_COMPLETION_INDEX": bad]) == "--shard env/3: JOB_COMPLETION_INDEX='\(bad)' is not a whole number >= 0")
    }
  }

  @Test func envWithACountMustMatchTheSlurmArray() throws {
    #expect(try Self.resolve("env/8", Self.slurm(id: 7, min: 0, max: 7, count: 8)) == Shard(index: 8, count: 8))
    #expect(
      try Self.problem("env/4", Self.slurm(id: 1, min: 0, max: 7, count: 8))
        == "--shard env/4: the Slurm array has SLURM_ARRAY_TASK_COUNT=8 tasks, not 4; give --shard env, or make N the array's size")
  }

  @Test func aKubernetesIndexNeedsTheCount() throws {
    for index in 0..<8 {
      #expect(try Self.resolve("env/8", ["JOB_COMPLETION_INDEX": "\(index)"]) == Shard(index: index + 1, count: 8))
    }
    let resolved = try #require(ShardRequest(parsing: "env/8")).resolve(environment: ["JOB_COMPLETION_INDEX": "3"])
    #expect(resolved.origin == "JOB_COMPLETION_INDEX=3 of 8 completions")
    #expect(
      try Self.problem("env", ["JOB_COMPLETION_INDEX": "3"])
        == "--shard env: JOB_COMPLETION_INDEX=3 is set (a Kubernetes Indexed Job) but Kubernetes does not tell a pod the number of completions: give it as --shard env/N, N the Job's spec.completions")
    #expect(
      try Self.problem("env/8", ["JOB_COMPLETION_INDEX": "8"])
        == "--shard env/8: JOB_COMPLETION_INDEX=8 is outside 0...7; N must be the Job's spec.completions")
  }

  @Test func slurmWinsOverAnInheritedKubernetesIndex() throws {
    var env = Self.slurm(id: 2, min: 0, max: 3, count: 4)
    env["JOB_COMPLETION_INDEX"] = "0"
    #expect(try Self.resolve("env/4", env) == Shard(index: 3, count: 4))
  }

  @Test func neitherSchedulerIsAUsageProblemNamingTheVariables() throws {
    let message = try Self.problem("env", ["PATH": "/usr/bin", "JOB_COMPLETION_INDEX": ""])
    #expect(
      message
        == "--shard env: neither a Slurm job array (SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_MAX, SLURM_ARRAY_TASK_COUNT) nor a Kubernetes Indexed Job (JOB_COMPLETION_INDEX) is in the environment; run it as a task of 'sbatch --array' or a pod of an Indexed Job, or give the shard as K/N")
    #expect(try Self.problem("env/8", [:]).hasPrefix("--shard env/8: neither a Slurm job array"))
    #expect(try Self.problem("env", ["SLURM_JOB_ID": "77"]).hasSuffix("(Slurm job 77 is not an array job: submit it with sbatch --array=1-N)"))
  }
}
