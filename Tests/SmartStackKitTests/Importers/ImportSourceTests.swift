import Foundation
import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual
@testable import SmartStackBench
import SmartStackTestSupport

@Suite("Import sources: plain, gzip, tar and tar-in-gzip")
struct ImportSourceTests {
  private let text = Array(ImporterFixtures.lsappText.utf8)

  private func unpacked(_ source: ImportSource) -> [UInt8] { source.withText { Array($0) } }

  @Test func recognisesEachContainerByContentWhateverTheName() throws {
    var tar = TarWriter()
    tar.add("lsapp.tsv", text)
    tar.end()
    let cases: [([UInt8], ImportSource.Container, String)] = [
      (text, .plain, "x.tsv.gz"),
      (ImporterFixtures.lsappGzip, .gzip, "x.tsv"),
      (tar.bytes, .tar, "x.tsv"),
      (ImporterFixtures.lsappTarGzip, .tarGzip, "x.tsv.gz"),
    ]
    for (bytes, container, name) in cases {
      let source = try ImportSource.unpack(bytes, file: name, extensions: [".tsv"])
      #expect(source.container == container, "\(container)")
      #expect(unpacked(source) == text, "\(container)")
      #expect(source.textCount == text.count, "\(container)")
      let isArchive = container == .tar || container == .tarGzip
      #expect(source.file == (isArchive ? "\(name)(lsapp.tsv)" : name), "\(container)")
      #expect(source.member == (isArchive ? "lsapp.tsv" : nil), "\(container)")
    }
  }

  @Test func picksTheOnlyTSVAndIgnoresResourceForksAndOtherFiles() throws {
    let source = try ImportSource.unpack(
      ImporterFixtures.paxTarGzip, file: "p.tgz", extensions: [".tsv"])
    #expect(source.member?.hasSuffix("-bytes/lsapp.tsv") == true)
    #expect(
      String(decoding: unpacked(source), as: UTF8.self)
        == "user_id\tsession_id\ttimestamp\tapp_name\tevent_type\n7\t1\t2018-01-16 06:01:05\tGmail\tOpened\n"
    )
  }

  @Test func memberChoosesByPathOrBaseName() throws {
    let byName = try ImportSource.unpack(
      ImporterFixtures.paxTarGzip, file: "p.tgz", member: "README.txt", extensions: [".tsv"])
    #expect(byName.member == "paxdir/README.txt")
    #expect(byName.file == "p.tgz(paxdir/README.txt)")
    let byPath = try ImportSource.unpack(
      ImporterFixtures.paxTarGzip, file: "p.tgz", member: "paxdir/._lsapp.tsv", extensions: [".tsv"]
    )
    #expect(unpacked(byPath) == Array("junk".utf8))
  }

  @Test func missingAmbiguousAndMisplacedMembersAreExplained() {
    let missing = archiveError {
      _ = try ImportSource.unpack(
        ImporterFixtures.paxTarGzip, file: "p.tgz", member: "x.tsv", extensions: [".tsv"])
    }
    #expect(missing?.kind == .memberNotFound)
    #expect(
      missing?.message.hasPrefix(
        "no file named 'x.tsv' in the archive (files: paxdir/._lsapp.tsv, paxdir/README.txt, ")
        == true)

    var two = TarWriter()
    two.add("a/lsapp.tsv", text)
    two.add("b/LSAPP.TSV", text)
    two.add("notes.txt", [])
    two.end()
    let ambiguous = archiveError {
      _ = try ImportSource.unpack(two.bytes, file: "t.tar", extensions: [".tsv"])
    }
    #expect(ambiguous?.kind == .ambiguousMember)
    #expect(
      ambiguous?.message
        == "several .tsv files in the archive (a/lsapp.tsv, b/LSAPP.TSV); choose one with --member")

    var none = TarWriter()
    none.add("notes.txt", [])
    none.add("folder/", [], type: UInt8(ascii: "5"))
    let noTSV = archiveError {
      _ = try ImportSource.unpack(none.bytes, file: "t.tar", extensions: [".tsv"])
    }
    #expect(
      noTSV?.message == "no .tsv file in the archive (files: notes.txt); choose one with --member")

    let notArchive = archiveError {
      _ = try ImportSource.unpack(text, file: "x.tsv", member: "lsapp.tsv", extensions: [".tsv"])
    }
    #expect(notArchive?.message == "--member lsapp.tsv was given but the file is not a tar archive")
  }

  @Test func openNamesThePathInArchiveErrorsAndReportsMissingFiles() throws {
    let folder = try TestFolders.fresh("source")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("bomb.gz").path
    let zeros = [UInt8](repeating: 0, count: 1 + 258 * 100)
    try Data(ImporterFixtures.gzip(deflate: GzipDeflateTests.bomb(matches: 100), of: zeros)).write(
      to: URL(fileURLWithPath: path))
    let error = archiveError {
      _ = try ImportSource.open(path: path, extensions: [".tsv"], limit: 1000)
    }
    #expect(error?.kind == .tooLarge)
    #expect(error?.file == path)
    #expect(
      error?.description.hasPrefix("\(path): the data expands beyond the limit of 1000 bytes")
        == true)
    #expect(
      try ImportSource.open(path: path, extensions: [".tsv"], limit: 30_000).textCount
        == zeros.count)

    #expect(throws: InputFileError.self) {
      _ = try ImportSource.open(
        path: folder.appendingPathComponent("none.tsv").path, extensions: [".tsv"])
    }
  }
}
