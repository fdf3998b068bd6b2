package io.github.uidgen.segment;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The main class of a separate JVM that stands for one instance of an application: it opens a segment store on a
 * shared server, takes IDs of one key from several threads at once, and writes each thread's IDs, in the order
 * taken, to a file of its own.
 */
public final class SegmentTakerProcess {

	/** Printed when every thread is done and every file written. */
	static final String DONE = "DONE";

	private SegmentTakerProcess() {
	}

	/**
	 * Takes IDs and writes them.
	 * @param args backend, table or key prefix, key, threads, IDs per thread, output directory
	 * @throws Exception when a taker or a file fails; the test sees the exit code
	 */
	public static void main(String[] args) throws Exception {
		SegmentBackend backend = SegmentBackend.valueOf(args[0]);
		String name = args[1];
		String key = args[2];
		int threads = Integer.parseInt(args[3]);
		int perThread = Integer.parseInt(args[4]);
		Path out = Path.of(args[5]);
		// Left open on purpose: closing would drop the shared table; the process exits instead.
		SegmentBackend.Open open = backend.open(name);
		SegmentUidGenerator generator = SegmentUidGenerator.builder(open.store).key(key).build();
		SegmentUidGenerator[] perThreadGenerator = new SegmentUidGenerator[threads];
		java.util.Arrays.fill(perThreadGenerator, generator);
		long[][] ids = TakingThreads.take(perThreadGenerator, perThread);
		long pid = ProcessHandle.current().pid();
		for (int t = 0; t < threads; t++) {
			write(out.resolve(pid + "-" + t + ".ids"), ids[t]);
		}
		generator.close();
		System.out.println(DONE);
		System.out.flush();
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
