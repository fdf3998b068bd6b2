package io.github.uidgen.segment;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The main class of a separate JVM that stands for one instance of an application: for each store it is given, it
 * opens the store on its shared server and takes IDs of one key from several threads, all stores at once, and writes
 * each thread's IDs, in the order taken, to a file of its own under a directory per store.
 */
public final class SegmentTakerProcess {

	private SegmentTakerProcess() {
	}

	/**
	 * Takes IDs and writes them.
	 * @param args output directory, key, threads per store, IDs per thread, then one {@code BACKEND=name} per store
	 * (the backend and its table or key prefix)
	 * @throws Exception when a taker or a file fails; the test sees the exit code
	 */
	public static void main(String[] args) throws Exception {
		Path out = Path.of(args[0]);
		String key = args[1];
		int threads = Integer.parseInt(args[2]);
		int perThread = Integer.parseInt(args[3]);
		List<SegmentBackend> backends = new ArrayList<>();
		List<SegmentUidGenerator> generators = new ArrayList<>();
		List<SegmentUidGenerator> threadGenerators = new ArrayList<>();
		for (String store : Arrays.copyOfRange(args, 4, args.length)) {
			String[] parts = store.split("=", 2);
			SegmentBackend backend = SegmentBackend.valueOf(parts[0]);
			// Left open on purpose: closing would drop the shared table; the process exits instead.
			SegmentUidGenerator generator = SegmentUidGenerator.builder(backend.open(parts[1]).store)
				.key(key)
				.build();
			backends.add(backend);
			generators.add(generator);
			for (int t = 0; t < threads; t++) {
				threadGenerators.add(generator);
			}
		}
		long[][] ids = TakingThreads.take(threadGenerators.toArray(SegmentUidGenerator[]::new), perThread);
		long pid = ProcessHandle.current().pid();
		for (int b = 0; b < backends.size(); b++) {
			Path dir = Files.createDirectories(out.resolve(backends.get(b).name()));
			for (int t = 0; t < threads; t++) {
				write(dir.resolve(pid + "-" + t + ".ids"), ids[b * threads + t]);
			}
			generators.get(b).close();
		}
		System.exit(0);
	}

	private static void write(Path file, long[] ids) {
		try (DataOutputStream output = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file),
				1 << 16))) {
			for (long id : ids) {
				output.writeLong(id);
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
