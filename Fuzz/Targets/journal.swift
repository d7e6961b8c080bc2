// libFuzzer target: the batch journal's reading side (Journal.read(path:)). The reader
// takes a path, so each input is written to one temporary file first; the first byte (the
// zone byte of every target) is skipped.
import Foundation
import SmartStackKit

/// The file each input is written to, removed when the process exits (a process that
/// crashes leaves it, holding the input that crashed it).
let journalPath: String = {
  atexit { removeJournal() }
  return NSTemporaryDirectory() + "smartstack-fuzz-journal-\(getpid()).jsonl"
}()

private func removeJournal() { unlink(journalPath) }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJournal(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let (_, bytes) = fuzzInput(data, size)
  guard let file = fopen(journalPath, "wb") else { fatalError("cannot write \(journalPath)") }
  if !bytes.isEmpty { _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) } }
  fclose(file)
  expectReaderErrors { _ = try Journal.read(path: journalPath) }
  return 0
}
