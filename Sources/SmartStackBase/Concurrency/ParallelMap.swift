import Foundation

/// A data-parallel loop over independent parts of one input (the parts of a CSV window,
/// blocks of a plan's people): each part runs on a thread of
/// `DispatchQueue.concurrentPerform`, and the results come back in the parts' order, so
/// what is built from them does not depend on the number of cores or on timing.
///
/// This is for work inside one step of a command (reading a file, building a plan), which
/// has no tasks to schedule; runs of cells and people go through the command's worker pool.
package enum ParallelMap {
  /// The parts worth making: the cores this process may use (`AvailableCores`).
  package static var partCount: Int { AvailableCores.count }

  /// `body(part)` for every part at the same time, the results in the order of `parts`.
  package static func map<Part, R>(_ parts: [Part], _ body: (Part) -> R) -> [R] {
    if parts.count == 1 { return [body(parts[0])] }
    return withoutActuallyEscaping(body) { body in
      let work = PartResults(parts: parts, body: body)
      DispatchQueue.concurrentPerform(iterations: parts.count) { k in work.run(k) }
      return work.results()
    }
  }

  /// `a()` and `b()` at the same time on two threads, both results once both have
  /// returned; one after the other when `inParallel` is false (work too small to be worth
  /// a thread) or the process has one core. For two unlike pieces of one step's work that
  /// touch nothing in common (each may mutate what it alone captured).
  package static func both<A, B>(_ a: () -> A, _ b: () -> B, inParallel: Bool = true) -> (A, B) {
    if !inParallel || partCount == 1 { return (a(), b()) }
    let results = map([0, 1]) { k -> OneOfTwo<A, B> in k == 0 ? .first(a()) : .second(b()) }
    guard case .first(let x) = results[0], case .second(let y) = results[1] else {
      preconditionFailure("ParallelMap.map gives its results in the parts' order")
    }
    return (x, y)
  }

  /// `0..<count` cut into at most `parts` consecutive ranges of about equal size, none empty.
  package static func blocks(count: Int, parts: Int) -> [Range<Int>] {
    guard count > 0 else { return [] }
    let n = min(max(1, parts), count)
    return (0..<n).map { k in (k * count / n)..<((k + 1) * count / n) }
  }
}

/// The result of one of `ParallelMap.both`'s two pieces of work.
private enum OneOfTwo<A, B> {
  case first(A)
  case second(B)
}

/// The results of `ParallelMap.map`'s parts, written from the threads of
/// `DispatchQueue.concurrentPerform`.
///
/// **Invariants** (why `@unchecked Sendable` holds): part `k` is run by exactly one
/// iteration, which alone writes slot `k`, once; `results()` is called only after
/// `concurrentPerform` has returned, so every write happens before it; `body` only reads
/// what it captured and is not used after `map` returns (`withoutActuallyEscaping`).
private final class PartResults<Part, R>: @unchecked Sendable {
  let parts: [Part]
  let body: (Part) -> R
  let slots: UnsafeMutablePointer<R?>

  init(parts: [Part], body: @escaping (Part) -> R) {
    self.parts = parts
    self.body = body
    slots = .allocate(capacity: parts.count)
    slots.initialize(repeating: nil, count: parts.count)
  }

  deinit {
    slots.deinitialize(count: parts.count)
    slots.deallocate()
  }

  func run(_ k: Int) { slots[k] = body(parts[k]) }

  func results() -> [R] { (0..<parts.count).map { slots[$0]! } }
}
