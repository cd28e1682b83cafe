@preconcurrency import CZip

#if canImport(Glibc)
    import Glibc
#endif

/// The zip around a chunk: exactly `export.bin` and `export.sig` at the root.
///
/// Built and read entirely in memory with libzip (no temporary files). Thread-safe: every call
/// uses its own libzip objects. Every libzip object is freed on every path.
public enum ChunkArchive {
    public static let exportBinName = "export.bin"
    public static let exportSigName = "export.sig"
    /// The largest entry accepted or written, uncompressed: the 16 MB that clients accept for a
    /// whole archive (spec §0 item 7), so a small zip can never expand into gigabytes.
    public static let maximumEntryBytes = 16 * 1024 * 1024
    /// The modification time written for both entries, so equal inputs give equal zip bytes:
    /// 1980-01-01 00:00:00, the earliest zip date, as MS-DOS time and date fields. Set as DOS
    /// fields because libzip turns a `time_t` into them with the local time zone, and then the
    /// bytes would depend on where the server runs.
    static let entryDOSTime: UInt16 = 0
    static let entryDOSDate: UInt16 = (1980 - 1980) << 9 | 1 << 5 | 1

    /// A deflated zip holding `export.bin`, then `export.sig`.
    public static func zip(exportBin: [UInt8], exportSig: [UInt8]) throws(ExportError) -> [UInt8] {
        for (name, bytes) in [(exportBinName, exportBin), (exportSigName, exportSig)]
        where bytes.count > maximumEntryBytes {
            throw .entryTooLarge(name: name, bytes: UInt64(bytes.count))
        }
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        guard let source = zip_source_buffer_create(nil, 0, 0, &error) else {
            throw .zipWriteFailed(reason: String(cString: zip_error_strerror(&error)))
        }
        guard let archive = zip_open_from_source(source, ZIP_CREATE | ZIP_TRUNCATE, &error) else {
            zip_source_free(source)
            throw .zipWriteFailed(reason: String(cString: zip_error_strerror(&error)))
        }
        // Keep the buffer source alive past zip_close, which writes the finished archive into it.
        zip_source_keep(source)
        defer { zip_source_free(source) }

        // libzip reads the entry bytes only in zip_close, so the buffers stay pinned until then.
        let written: Result<Void, ExportError> = exportBin.withUnsafeBytes { bin in
            exportSig.withUnsafeBytes { sig in
                for (name, bytes) in [(exportBinName, bin), (exportSigName, sig)] {
                    if let failure = addEntry(archive, name: name, bytes: bytes) {
                        zip_discard(archive)
                        return .failure(failure)
                    }
                }
                guard zip_close(archive) == 0 else {
                    let failure = ExportError.zipWriteFailed(reason: String(cString: zip_strerror(archive)))
                    zip_discard(archive)
                    return .failure(failure)
                }
                return .success(())
            }
        }
        try written.get()
        return try finishedBytes(source)
    }

    /// Reads a chunk zip from memory: exactly the root entries export.bin and export.sig (in
    /// either order), each at most ``maximumEntryBytes``. Anything else throws: another name, a
    /// duplicate, a name with a directory or `..`, an encrypted entry, damaged data.
    public static func unzip(_ zip: [UInt8]) throws(ExportError) -> (exportBin: [UInt8], exportSig: [UInt8]) {
        guard !zip.isEmpty else { throw .notAZip(reason: "the data is empty") }
        let entries: Result<[String: [UInt8]], ExportError> = zip.withUnsafeBytes { raw in
            var error = zip_error_t()
            zip_error_init(&error)
            defer { zip_error_fini(&error) }
            guard let source = zip_source_buffer_create(raw.baseAddress, UInt64(raw.count), 0, &error) else {
                return .failure(.notAZip(reason: String(cString: zip_error_strerror(&error))))
            }
            guard let archive = zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &error) else {
                zip_source_free(source)
                // With ZIP_CHECKCONS libzip refuses a repeated name before we see any name.
                if zip_error_code_zip(&error) == ZIP_ER_EXISTS {
                    return .failure(.duplicateEntry(name: repeatedName(raw) ?? "an entry"))
                }
                return .failure(.notAZip(reason: String(cString: zip_error_strerror(&error))))
            }
            // The archive owns the source now; discarding it frees both.
            defer { zip_discard(archive) }
            return readEntries(archive)
        }
        let found = try entries.get()
        guard let exportBin = found[exportBinName] else { throw .missingEntry(name: exportBinName) }
        guard let exportSig = found[exportSigName] else { throw .missingEntry(name: exportSigName) }
        return (exportBin, exportSig)
    }

    /// The first entry name that occurs twice, read without libzip's consistency checks (which
    /// stop at the repetition without naming it); nil if none is found.
    private static func repeatedName(_ raw: UnsafeRawBufferPointer) -> String? {
        guard let source = zip_source_buffer_create(raw.baseAddress, UInt64(raw.count), 0, nil) else { return nil }
        guard let archive = zip_open_from_source(source, ZIP_RDONLY, nil) else {
            zip_source_free(source)
            return nil
        }
        defer { zip_discard(archive) }
        var seen: Set<String> = []
        for index in 0..<UInt64(max(0, zip_get_num_entries(archive, 0))) {
            guard let cName = zip_get_name(archive, index, ZIP_FL_ENC_RAW) else { return nil }
            let name = entryName(cName)
            if !seen.insert(name).inserted { return name }
        }
        return nil
    }

    /// A NUL-terminated entry name as text (invalid UTF-8 replaced, for display only).
    private static func entryName(_ cName: UnsafePointer<CChar>) -> String {
        let bytes = UnsafeBufferPointer(
            start: UnsafeRawPointer(cName).assumingMemoryBound(to: UInt8.self), count: strlen(cName))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// zlib level 6. libzip's default is 9, which made a 10 000-key chunk no smaller (176 675
    /// against 176 693 bytes) in four times the time; level 1 is faster again but 8 % larger, and
    /// every phone downloads every chunk, so bytes count more than the publisher's milliseconds
    /// (docs/benchmarks.md).
    static let deflateLevel: UInt32 = 6

    /// Adds one deflated entry with the fixed modification time; nil on success.
    private static func addEntry(_ archive: OpaquePointer, name: String, bytes: UnsafeRawBufferPointer) -> ExportError?
    {
        guard let entrySource = zip_source_buffer(archive, bytes.baseAddress, UInt64(bytes.count), 0) else {
            return .zipWriteFailed(reason: String(cString: zip_strerror(archive)))
        }
        let index = zip_file_add(archive, name, entrySource, ZIP_FL_ENC_GUESS)
        guard index >= 0 else {
            // zip_file_add takes ownership only when it succeeds.
            zip_source_free(entrySource)
            return .zipWriteFailed(reason: String(cString: zip_strerror(archive)))
        }
        guard zip_set_file_compression(archive, UInt64(index), ZIP_CM_DEFLATE, Self.deflateLevel) == 0,
            zip_file_set_dostime(archive, UInt64(index), entryDOSTime, entryDOSDate, 0) == 0
        else { return .zipWriteFailed(reason: String(cString: zip_strerror(archive))) }
        return nil
    }

    /// The archive bytes zip_close wrote into the buffer source.
    private static func finishedBytes(_ source: OpaquePointer) throws(ExportError) -> [UInt8] {
        var stat = zip_stat_t()
        zip_stat_init(&stat)
        guard zip_source_stat(source, &stat) == 0, stat.valid & UInt64(ZIP_STAT_SIZE) != 0 else {
            throw .zipWriteFailed(reason: String(cString: zip_error_strerror(zip_source_error(source))))
        }
        guard zip_source_open(source) == 0 else {
            throw .zipWriteFailed(reason: String(cString: zip_error_strerror(zip_source_error(source))))
        }
        defer { zip_source_close(source) }
        var output = [UInt8](repeating: 0, count: Int(stat.size))
        let read = output.withUnsafeMutableBytes { zip_source_read(source, $0.baseAddress, stat.size) }
        guard read >= 0, UInt64(read) == stat.size else {
            throw .zipWriteFailed(reason: "libzip returned \(read) of \(stat.size) archive bytes")
        }
        return output
    }

    /// Every entry's bytes by name, after checking names, duplicates, sizes and encryption.
    private static func readEntries(_ archive: OpaquePointer) -> Result<[String: [UInt8]], ExportError> {
        let count = zip_get_num_entries(archive, 0)
        guard count >= 0 else { return .failure(.notAZip(reason: String(cString: zip_strerror(archive)))) }
        var found: [String: [UInt8]] = [:]
        for index in 0..<UInt64(count) {
            guard let cName = zip_get_name(archive, index, ZIP_FL_ENC_RAW) else {
                return .failure(.notAZip(reason: String(cString: zip_strerror(archive))))
            }
            let name = entryName(cName)
            if let problem = nameProblem(name, alreadyFound: found.keys) { return .failure(problem) }
            var stat = zip_stat_t()
            zip_stat_init(&stat)
            guard zip_stat_index(archive, index, 0, &stat) == 0, stat.valid & UInt64(ZIP_STAT_SIZE) != 0 else {
                return .failure(.unreadableEntry(name: name, reason: String(cString: zip_strerror(archive))))
            }
            if stat.valid & UInt64(ZIP_STAT_ENCRYPTION_METHOD) != 0, stat.encryption_method != UInt16(ZIP_EM_NONE) {
                return .failure(.encryptedEntry(name: name))
            }
            guard stat.size <= UInt64(maximumEntryBytes) else {
                return .failure(.entryTooLarge(name: name, bytes: stat.size))
            }
            switch readEntry(archive, index: index, name: name, size: Int(stat.size)) {
            case .success(let bytes): found[name] = bytes
            case .failure(let failure): return .failure(failure)
            }
        }
        return .success(found)
    }

    /// Why `name` may not be in a chunk, or nil when it is export.bin or export.sig seen once.
    private static func nameProblem(_ name: String, alreadyFound: some Collection<String>) -> ExportError? {
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        if name.contains("/") || name.contains("\\") || components.contains("..") || name == ".." {
            return .unsafeEntryPath(name: name)
        }
        guard name == exportBinName || name == exportSigName else { return .unexpectedEntry(name: name) }
        guard !alreadyFound.contains(name) else { return .duplicateEntry(name: name) }
        return nil
    }

    /// Exactly `size` bytes of entry `index`, then a check that the entry ends there (which is
    /// also when libzip compares the CRC).
    private static func readEntry(_ archive: OpaquePointer, index: UInt64, name: String, size: Int)
        -> Result<[UInt8], ExportError>
    {
        guard let file = zip_fopen_index(archive, index, 0) else {
            return .failure(.unreadableEntry(name: name, reason: String(cString: zip_strerror(archive))))
        }
        defer { zip_fclose(file) }
        var output = [UInt8](repeating: 0, count: size + 1)
        var filled = 0
        while filled <= size {
            let read = output.withUnsafeMutableBytes { buffer in
                zip_fread(file, buffer.baseAddress! + filled, UInt64(size + 1 - filled))
            }
            if read < 0 {
                return .failure(.unreadableEntry(name: name, reason: String(cString: zip_file_strerror(file))))
            }
            if read == 0 { break }
            filled += Int(read)
        }
        guard filled == size else {
            return .failure(
                .unreadableEntry(name: name, reason: "\(filled) bytes where the zip directory says \(size)"))
        }
        output.removeLast()
        return .success(output)
    }
}
