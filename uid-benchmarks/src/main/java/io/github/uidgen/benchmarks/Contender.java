package io.github.uidgen.benchmarks;

import java.time.Duration;
import java.time.LocalDate;
import java.util.concurrent.atomic.AtomicLong;

import cn.hutool.core.lang.Snowflake;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.UidLayout;
import io.github.uidgen.UidTimeUnit;
import io.github.uidgen.snowflake.CachedUidGenerator;
import io.github.uidgen.snowflake.DefaultUidGenerator;
import io.github.uidgen.segment.SegmentUidGenerator;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import me.ahoo.cosid.segment.IdSegmentDistributor;
import me.ahoo.cosid.segment.SegmentChainId;
import me.ahoo.cosid.snowflake.MillisecondSnowflakeId;

/**
 * Every generator the benchmarks compare, with the exact settings each figure was measured with.
 */
public enum Contender {

	/** Ours, cached, with a layout roomy enough for the benchmark's rate. */
	UID_CACHED("uid-cached",
			"tuned: ms 41/" + Layouts.WIDE_WORKER_BITS + "/" + Layouts.WIDE_SEQ_BITS + ", 1M slots, max-ahead "
					+ Layouts.WIDE_MAX_AHEAD.toSeconds() + " s",
			"ours: CachedUidGenerator, ms layout 41/" + Layouts.WIDE_WORKER_BITS + "/" + Layouts.WIDE_SEQ_BITS + " ("
					+ Layouts.describeCeiling(Layouts.WIDE_SEQ_BITS) + "), boostPower " + Layouts.WIDE_BOOST_POWER
					+ ", maxAhead " + Layouts.WIDE_MAX_AHEAD.toSeconds() + " s",
			0, false) {
		@Override
		public IdSource open() {
			CachedUidGenerator generator = wideCachedGenerator();
			return source(generator::getUID, generator::close);
		}
	},

	/**
	 * Ours, cached, every setting at its default (41/10/12 ms layout, 32,768 slots, maxAhead 10 s): bursts of up to
	 * 40.96 million IDs borrowed from the next 10 s, then the layout's 4,096 IDs per millisecond.
	 */
	UID_CACHED_DEFAULTS("uid-cached-defaults", Layouts.DEFAULTS_CACHED,
			"ours: CachedUidGenerator, all defaults (ms 41/10/12, 32,768 slots, maxAhead 10 s: bursts borrow up to 10 s "
					+ "of future time, sustained rate 4,096/ms)",
			4_096_000, true) {
		@Override
		public IdSource open() {
			CachedUidGenerator generator = defaultsCachedGenerator();
			return source(generator::getUID, generator::close);
		}
	},

	/**
	 * Ours, cached, as {@link #UID_CACHED} but with the starter's Micrometer meters bound and scraped every 10 ms,
	 * far more often than any monitoring system would: the price of the meters.
	 */
	UID_CACHED_METERED("uid-cached-metered", "as uid-cached, meters bound and read every 10 ms",
			"ours: as uid-cached, with the starter's meters bound to a registry that a thread reads every 10 ms", 0,
			false) {
		@Override
		public IdSource open() {
			return metered(wideCachedGenerator());
		}
	},

	/** Ours, cached, every setting at its default, with the starter's meters bound and scraped every 10 ms. */
	UID_CACHED_DEFAULTS_METERED("uid-cached-defaults-metered",
			"as uid-cached-defaults, meters bound and read every 10 ms",
			"ours: as uid-cached-defaults, with the starter's meters bound to a registry that a thread reads every "
					+ "10 ms",
			4_096_000, true) {
		@Override
		public IdSource open() {
			return metered(defaultsCachedGenerator());
		}
	},

	/** Ours, computed on the call, default layout, with the starter's meters bound and scraped every 10 ms. */
	UID_DEFAULT_METERED("uid-default-metered", "as uid-default, meters bound and read every 10 ms",
			"ours: as uid-default, with the starter's meters bound to a registry that a thread reads every 10 ms",
			4_096_000, false) {
		@Override
		public IdSource open() {
			return metered(defaultGenerator());
		}
	},

	/** Ours, computed on the call, default layout. */
	UID_DEFAULT("uid-default", "defaults: ms 41/10/12",
			"ours: DefaultUidGenerator, default layout (ms 41/10/12, ceiling 4,096/ms)", 4_096_000, false) {
		@Override
		public IdSource open() {
			DefaultUidGenerator generator = defaultGenerator();
			return source(generator::getUID, generator::close);
		}
	},

	/**
	 * Ours, segment: numbers from in-memory segments of {@link Layouts#COSID_STEP} (CosId's step, and our default),
	 * every other setting at its default (adaptive step up to 1,000,000, prefetch at 80%).
	 */
	UID_SEGMENT("uid-segment", Layouts.DEFAULTS_SEGMENT,
			"ours: SegmentUidGenerator on an in-memory store (AtomicLong.addAndGet, as CosId's Atomic distributor), "
					+ "every setting at its default: step " + Layouts.COSID_STEP + " (as CosId's), max-step 1,000,000, "
					+ "target-interval 15 min, prefetch-threshold 80",
			0, false) {
		@Override
		public IdSource open() {
			SegmentUidGenerator generator = segmentGenerator();
			return source(generator::getUID, generator::close);
		}
	},

	/** Ours, segment at its defaults, with the starter's meters bound and scraped every 10 ms. */
	UID_SEGMENT_METERED("uid-segment-metered", "as uid-segment, meters bound and read every 10 ms",
			"ours: as uid-segment, with the starter's meters bound to a registry that a thread reads every 10 ms", 0,
			false) {
		@Override
		public IdSource open() {
			return metered(segmentGenerator());
		}
	},

	/** Ours, segment, with the adaptive step switched off: every segment holds {@link Layouts#COSID_STEP} numbers. */
	UID_SEGMENT_FIXED_STEP("uid-segment-fixed-step", "step = max-step 1,000, in-memory store",
			"ours: as uid-segment with max-step = step = " + Layouts.COSID_STEP + " (no adaptive step): one claim per "
					+ Layouts.COSID_STEP + " IDs",
			0, false) {
		@Override
		public IdSource open() {
			SegmentUidGenerator generator = SegmentUidGenerator.builder(new InMemorySegmentStore())
				.step(Layouts.COSID_STEP)
				.maxStep(Layouts.COSID_STEP)
				.build();
			return source(generator::getUID, generator::close);
		}
	},

	/** Ours, segment at its defaults, on uid's own table in MariaDB: the reference for {@link #UID_SEGMENT_LEAF}. */
	UID_SEGMENT_DB("uid-segment-db", "defaults: step 1,000 adaptive to 1M, MariaDB, uid's table",
			"ours: SegmentUidGenerator at its defaults on JdbcSegmentStore (UID_SEGMENT table, MariaDB, HikariCP)", 0,
			false) {
		@Override
		public IdSource open() {
			return DatabaseSegments.uidTable();
		}
	},

	/** Ours, segment at its defaults, on Meituan Leaf's leaf_alloc table in MariaDB (a row of step 1,000). */
	UID_SEGMENT_LEAF("uid-segment-leaf", "defaults: step 1,000 adaptive to 1M, MariaDB, Leaf's leaf_alloc",
			"ours: SegmentUidGenerator at its defaults on LeafAllocSegmentStore (leaf_alloc row of step 1,000, MariaDB, "
					+ "HikariCP)",
			0, false) {
		@Override
		public IdSource open() {
			return DatabaseSegments.leafTable();
		}
	},

	/** Baidu's cached generator as republished on Maven Central, with a layout that has not run out. */
	BAIDU_CACHED("baidu-cached", "s 31/20/12, 32K slots",
			"reference: com.xfvape.uid CachedUidGenerator 0.0.4-RELEASE, seconds since " + Layouts.BAIDU_EPOCH
					+ ", 31/20/12 bits, boostPower 3 (32,768 slots), paddingFactor 50",
			0, false) {
		@Override
		public IdSource open() {
			com.xfvape.uid.impl.CachedUidGenerator generator = Layouts.baiduCached();
			return source(generator::getUID, () -> {
				try {
					generator.destroy();
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			});
		}
	},

	/** CosId's segment chain fed by its in-memory distributor: not time-based, the fastest published peer. */
	COSID_SEGMENT_CHAIN("cosid-segment-chain", "step 1,000, in-memory distributor",
			"me.ahoo.cosid 2.13.3 SegmentChainId, IdSegmentDistributor.Atomic, step " + Layouts.COSID_STEP, 0, false) {
		@Override
		public IdSource open() {
			SegmentChainId generator = new SegmentChainId(new IdSegmentDistributor.Atomic(Layouts.COSID_STEP));
			return source(generator::generate, () -> {
			});
		}
	},

	/** CosId's millisecond Snowflake, default layout. */
	COSID_SNOWFLAKE("cosid-snowflake", "defaults: ms 41/10/12",
			"me.ahoo.cosid 2.13.3 MillisecondSnowflakeId, default 41/10/12 ms", 4_096_000, false) {
		@Override
		public IdSource open() {
			MillisecondSnowflakeId generator = new MillisecondSnowflakeId(1);
			return source(generator::generate, () -> {
			});
		}
	},

	/** Hutool's Snowflake, defaults (system clock, 12 sequence bits). */
	HUTOOL_SNOWFLAKE("hutool-snowflake", "defaults: ms 41/5+5/12", "cn.hutool 5.8.38 Snowflake(1, 1), 41/5+5/12 ms",
			4_096_000, false) {
		@Override
		public IdSource open() {
			Snowflake generator = new Snowflake(1, 1);
			return source(generator::nextId, () -> {
			});
		}
	},

	/**
	 * One shared counter advanced by read-then-compare-and-set, the way a ring take claims its slot: the floor for a
	 * design that must check before it claims.
	 */
	ATOMIC_LONG_CAS("atomic-long-cas", "one shared instance",
			"java.util.concurrent.atomic.AtomicLong get() then compareAndSet(v, v + 1), one shared instance", 0,
			false) {
		@Override
		public IdSource open() {
			AtomicLong counter = new AtomicLong();
			return source(() -> {
				for (;;) {
					long current = counter.get();
					if (counter.compareAndSet(current, current + 1)) {
						return current + 1;
					}
				}
			}, () -> {
			});
		}
	},

	/** One shared counter: the floor for anything that shares state between threads. */
	ATOMIC_LONG("atomic-long", "one shared instance",
			"java.util.concurrent.atomic.AtomicLong.incrementAndGet(), one shared instance", 0, false) {
		@Override
		public IdSource open() {
			AtomicLong counter = new AtomicLong();
			return source(counter::incrementAndGet, () -> {
			});
		}
	};

	private final String label;

	private final String settings;

	private final String description;

	private final long ceilingPerSecond;

	private final boolean borrowsAhead;

	Contender(String label, String settings, String description, long ceilingPerSecond, boolean borrowsAhead) {
		this.label = label;
		this.settings = settings;
		this.description = description;
		this.ceilingPerSecond = ceilingPerSecond;
		this.borrowsAhead = borrowsAhead;
	}

	/**
	 * Builds and starts the generator.
	 * @return a ready source; close it when done
	 */
	public abstract IdSource open();

	/**
	 * Returns the short name used in tables and on the command line.
	 * @return for example {@code uid-cached}
	 */
	public String label() {
		return this.label;
	}

	/**
	 * Returns the settings in a few words, for the settings column of the tables: whether they are the defaults.
	 * @return for example {@code defaults: ms 41/10/12}
	 */
	public String settings() {
		return this.settings;
	}

	/**
	 * Returns the generator's exact settings.
	 * @return a one-line description
	 */
	public String description() {
		return this.description;
	}

	/**
	 * Returns the most IDs per second the layout allows without borrowing future time: the sustained ceiling.
	 * @return IDs per second, or 0 when the figure is not bounded by a layout within the rates measured
	 */
	public long ceilingPerSecond() {
		return this.ceilingPerSecond;
	}

	/**
	 * Returns whether the generator may run above {@link #ceilingPerSecond()} for a while by issuing IDs of future
	 * time units (the cached generator's {@code maxAhead}), so a short run measures the burst, not the ceiling.
	 * @return whether bursts above the ceiling are possible
	 */
	public boolean borrowsAhead() {
		return this.borrowsAhead;
	}

	/**
	 * Finds a contender by its label or enum name.
	 * @param name for example {@code uid-cached} or {@code UID_CACHED}
	 * @return the contender
	 */
	public static Contender of(String name) {
		for (Contender contender : values()) {
			if (contender.label.equalsIgnoreCase(name) || contender.name().equalsIgnoreCase(name)) {
				return contender;
			}
		}
		throw new IllegalArgumentException("Unknown contender '" + name + "'; use one of " + labels());
	}

	/**
	 * Finds several contenders.
	 * @param names comma-separated labels or enum names
	 * @return the contenders, in the order given
	 */
	public static java.util.List<Contender> valueOfAll(String names) {
		java.util.List<Contender> contenders = new java.util.ArrayList<>();
		for (String name : names.split(",")) {
			contenders.add(of(name.trim()));
		}
		return contenders;
	}

	/**
	 * Lists the labels of all contenders.
	 * @return comma-separated labels
	 */
	public static String labels() {
		StringBuilder labels = new StringBuilder();
		for (Contender contender : values()) {
			labels.append((labels.length() > 0) ? ", " : "").append(contender.label);
		}
		return labels.toString();
	}

	/** Our default generator on the default layout, shared by the bare and the metered contender. */
	private static DefaultUidGenerator defaultGenerator() {
		return DefaultUidGenerator.builder().workerIdAssigner(new FixedWorkerIdAssigner(1)).build();
	}

	/** Our cached generator with every setting at its default, shared by the bare and the metered contender. */
	private static CachedUidGenerator defaultsCachedGenerator() {
		return CachedUidGenerator.builder().workerIdAssigner(new FixedWorkerIdAssigner(1)).build();
	}

	/** Our segment generator at its defaults on an in-memory store, shared by the bare and the metered contender. */
	private static SegmentUidGenerator segmentGenerator() {
		return SegmentUidGenerator.builder(new InMemorySegmentStore()).step(Layouts.COSID_STEP).build();
	}

	/** Binds the starter's meters to a generator and reads them every 10 ms while it issues IDs. */
	private static <G extends UidGenerator & AutoCloseable> IdSource metered(G generator) {
		MeterScraper scraper = MeterScraper.start(generator);
		return source(generator::getUID, () -> {
			scraper.close();
			try {
				generator.close();
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		});
	}

	/** Our cached generator on the wide layout, shared by the bare and the metered contender. */
	private static CachedUidGenerator wideCachedGenerator() {
		return CachedUidGenerator.builder()
			.layout(Layouts.wide())
			.boostPower(Layouts.WIDE_BOOST_POWER)
			.maxAhead(Layouts.WIDE_MAX_AHEAD)
			.workerIdAssigner(new FixedWorkerIdAssigner(1))
			.build();
	}

	private static IdSource source(java.util.function.LongSupplier next, Runnable close) {
		return new IdSource() {

			@Override
			public long nextId() {
				return next.getAsLong();
			}

			@Override
			public void close() {
				close.run();
			}

		};
	}

	/**
	 * The layouts and settings the contenders use.
	 */
	static final class Layouts {

		/** Few worker bits, many sequence bits: 2^20 IDs per millisecond, so the benchmark never waits on time. */
		static final int WIDE_WORKER_BITS = 2;

		static final int WIDE_SEQ_BITS = 20;

		static final int WIDE_BOOST_POWER = 0;

		static final Duration WIDE_MAX_AHEAD = Duration.ofSeconds(60);

		static final String BAIDU_EPOCH = "2025-01-01";

		static final long COSID_STEP = 1000;

		static final String DEFAULTS_CACHED = "defaults: ms 41/10/12, 32K slots, max-ahead 10 s";

		static final String DEFAULTS_SEGMENT = "defaults: step 1,000 adaptive to 1M, in-memory store";

		private Layouts() {
		}

		static UidLayout wide() {
			return new UidLayout(UidTimeUnit.MILLISECONDS, LocalDate.of(2025, 1, 1), 41, WIDE_WORKER_BITS,
					WIDE_SEQ_BITS);
		}

		static String describeCeiling(int seqBits) {
			return String.format("%,d/ms", 1L << seqBits);
		}

		static com.xfvape.uid.impl.CachedUidGenerator baiduCached() {
			com.xfvape.uid.impl.CachedUidGenerator generator = new com.xfvape.uid.impl.CachedUidGenerator();
			// Its own default (28 time bits of seconds since 2016-05-20) ran out in 2024; 31 bits from 2025 last
			// until 2093, and 12 sequence bits give the same ring size as ours at default settings.
			generator.setTimeBits(31);
			generator.setWorkerBits(20);
			generator.setSeqBits(12);
			generator.setEpochStr(BAIDU_EPOCH);
			generator.setWorkerIdAssigner(() -> 1L);
			try {
				generator.afterPropertiesSet();
			}
			catch (Exception ex) {
				throw new IllegalStateException("The reference generator did not start: " + ex, ex);
			}
			return generator;
		}

	}

}
