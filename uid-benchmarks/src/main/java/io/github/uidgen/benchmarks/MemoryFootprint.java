package io.github.uidgen.benchmarks;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.ref.Reference;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;

import io.github.uidgen.buffer.RingBuffer;
import io.github.uidgen.snowflake.CachedUidGenerator;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import org.openjdk.jol.info.GraphLayout;

/**
 * Retained heap of our cached generator at default settings against the reference's cached generator at the
 * same ring size (32,768 slots), measured two ways: the heap a started generator keeps after full collections,
 * and the exact size of each ring's data structures walked with JOL.
 */
public final class MemoryFootprint {

	private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

	private MemoryFootprint() {
	}

	public static void main(String[] args) throws Exception {
		Arguments arguments = new Arguments(args, "repeats");
		run(arguments.getInt("repeats", 5), System.out);
		System.exit(0);
	}

	static void run(int repeats, PrintStream out) throws Exception {
		// Load and initialise both libraries before measuring, so class metadata and statics are not counted.
		measureOurs();
		measureReference();
		List<Double> oursHeap = new ArrayList<>();
		List<Double> referenceHeap = new ArrayList<>();
		long oursRing = 0;
		long referenceRing = 0;
		int oursSlots = 0;
		int referenceSlots = 0;
		for (int i = 0; i < repeats; i++) {
			Footprint ours = measureOurs();
			Footprint reference = measureReference();
			oursHeap.add((double) ours.retainedBytes);
			referenceHeap.add((double) reference.retainedBytes);
			oursRing = ours.ringBytes;
			referenceRing = reference.ringBytes;
			oursSlots = ours.slots;
			referenceSlots = reference.slots;
		}
		Samples ours = new Samples(oursHeap);
		Samples reference = new Samples(referenceHeap);
		out.printf("## Memory: cached generator at default settings vs the reference at the same ring size%n%n");
		MarkdownTable table = new MarkdownTable("generator", "ring slots", "ring structures (JOL)",
				"bytes per slot", "retained heap, median of " + repeats, "min – max", "ours ÷ this");
		table.row(Contender.UID_CACHED_DEFAULTS.label(), String.format("%,d", oursSlots), kib(oursRing),
				String.format("%.1f", (double) oursRing / oursSlots), kib(ours.median()),
				kib(ours.min()) + " – " + kib(ours.max()), MarkdownTable.ratio(ours.median(), ours.median()));
		table.row(Contender.BAIDU_CACHED.label(), String.format("%,d", referenceSlots), kib(referenceRing),
				String.format("%.1f", (double) referenceRing / referenceSlots), kib(reference.median()),
				kib(reference.min()) + " – " + kib(reference.max()),
				MarkdownTable.ratio(ours.median(), reference.median()));
		table.print(out);
		out.printf("Retained heap: used heap after full collections with the generator started and reachable, minus "
				+ "before it was built (includes its threads' Thread objects, not their native stacks). Ring "
				+ "structures: every object of the ring's slot and flag arrays and cursors, sized by JOL.%n%n");
	}

	private static Footprint measureOurs() throws ReflectiveOperationException {
		long before = settledHeap();
		CachedUidGenerator generator = CachedUidGenerator.builder()
			.workerIdAssigner(new FixedWorkerIdAssigner(1))
			.build();
		generator.getUID();
		long after = settledHeap();
		// The ring is not public API; it is reached by reflection, as the reference's is below.
		RingBuffer ring = (RingBuffer) field(generator, "ring");
		long ringBytes = GraphLayout.parseInstance(field(ring, "slots"), field(ring, "tail"), field(ring, "head"))
			.totalSize();
		int slots = ring.capacity();
		Reference.reachabilityFence(generator);
		generator.close();
		return new Footprint(after - before, ringBytes, slots);
	}

	private static Footprint measureReference() throws Exception {
		long before = settledHeap();
		com.xfvape.uid.impl.CachedUidGenerator generator = Contender.Layouts.baiduCached();
		generator.getUID();
		long after = settledHeap();
		Object ring = field(generator, "ringBuffer");
		long ringBytes = GraphLayout
			.parseInstance(field(ring, "slots"), field(ring, "flags"), field(ring, "tail"), field(ring, "cursor"))
			.totalSize();
		int slots = ((long[]) field(ring, "slots")).length;
		Reference.reachabilityFence(generator);
		generator.destroy();
		return new Footprint(after - before, ringBytes, slots);
	}

	private static Object field(Object target, String name) throws ReflectiveOperationException {
		for (Class<?> type = target.getClass(); type != null; type = type.getSuperclass()) {
			try {
				Field field = type.getDeclaredField(name);
				field.setAccessible(true);
				return field.get(target);
			}
			catch (NoSuchFieldException ex) {
				// look in the superclass
			}
		}
		throw new NoSuchFieldException(target.getClass().getName() + "." + name);
	}

	/** Collects until the used heap stops shrinking, then reports it. */
	private static long settledHeap() {
		long previous = Long.MAX_VALUE;
		for (int i = 0; i < 10; i++) {
			System.gc();
			try {
				Thread.sleep(50);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			long used = MEMORY.getHeapMemoryUsage().getUsed();
			if (used >= previous && i >= 2) {
				return previous;
			}
			previous = Math.min(previous, used);
		}
		return previous;
	}

	private static String kib(double bytes) {
		return String.format("%,.0f KiB", bytes / 1024);
	}

	private record Footprint(long retainedBytes, long ringBytes, int slots) {
	}

}
