package io.github.uidgen.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One way of starting the sample (or its twin without uid) in the start-up benchmark: which jar, which profile and
 * settings. A round's first start and its restart run the same command, one after the other, so the restart finds
 * what the first start left: its state file, its released lease, its registry, its segment key.
 */
enum StartupSetup {

	PLAIN("plain", "the sample without uid (uid-startup-baseline): the same dependencies less the starter, a counter "
			+ "answers GET /uid; default profile (no DataSource, no Redis)") {

		@Override
		List<String> arguments(StartupStores stores, int round) {
			return List.of();
		}

	},

	PLAIN_DB("plain, mysql profile", "the same, with the sample's mysql profile: a DataSource (Hikari connects on "
			+ "first use, which nothing makes at start)") {

		@Override
		List<String> arguments(StartupStores stores, int round) {
			return List.of("--spring.profiles.active=mysql", "--spring.datasource.url=" + stores.mariadbUrl());
		}

	},

	PLAIN_REDIS("plain, redis profile", "the same, with the sample's redis profile: a Redis connection factory "
			+ "(Lettuce connects on first use, which nothing makes at start)") {

		@Override
		List<String> arguments(StartupStores stores, int round) {
			return stores.redisArguments(null, null);
		}

	},

	PLAIN_DB_USED("plain, mysql profile, database used at start", "the same, reading its database once while its "
			+ "context starts (baseline.use-store-at-start), as an application that migrates or validates its schema "
			+ "does; not in the default setups") {

		@Override
		List<String> arguments(StartupStores stores, int round) {
			return usingTheStore(PLAIN_DB.arguments(stores, round));
		}

	},

	PLAIN_REDIS_USED("plain, redis profile, Redis used at start", "the same, reading Redis once while its context "
			+ "starts (baseline.use-store-at-start), as an application that warms a cache does; not in the default "
			+ "setups") {

		@Override
		List<String> arguments(StartupStores stores, int round) {
			return usingTheStore(PLAIN_REDIS.arguments(stores, round));
		}

	},

	PLAIN_ZOOKEEPER_USED("plain, ZooKeeper used at start", "the same, default profile, with a Curator client built as "
			+ "the starter builds uid's (baseline.zookeeper.connect-string) that reads the root znode once while the "
			+ "context starts, as an application that reads its configuration from ZooKeeper does; not in the default "
			+ "setups") {

		@Override
		List<String> arguments(StartupStores stores, int round) {
			return usingTheStore(List.of("--baseline.zookeeper.connect-string=" + stores.zookeeperConnectString()));
		}

		@Override
		boolean needsZookeeper() {
			return true;
		}

	},

	STATIC("static", "default profile: worker ID 1 from configuration, its mark in a state file (a new folder each "
			+ "round: no file at the first start); cached generator") {

		@Override
		List<String> arguments(StartupStores stores, int round) {
			return List.of();
		}

	},

	DB("db", "mysql profile on MariaDB: lease table (made by the warm-up start), a new instance ID each round; cached "
			+ "generator") {

		@Override
		List<String> arguments(StartupStores stores, int round) {
			return List.of("--spring.profiles.active=mysql", "--spring.datasource.url=" + stores.mariadbUrl(),
					"--uid.worker.db.lease-table=" + stores.name("lease"), instanceId(round));
		}

	},

	REDIS("redis", "redis profile: a namespace in use (the warm-up start waited its registry-loss margin), a new "
			+ "instance ID each round; cached generator") {

		@Override
		List<String> arguments(StartupStores stores, int round) {
			return stores.redisArguments("existing", instanceId(round));
		}

	},

	REDIS_NEW("redis, new namespace", "redis profile: a namespace never used before at the first start (the restart "
			+ "finds it in use); cached generator") {

		@Override
		List<String> arguments(StartupStores stores, int round) {
			return stores.redisArguments("new-" + ((round < 0) ? "warmup" : "r" + round), instanceId(round));
		}

	},

	ZOOKEEPER("zookeeper", "zookeeper profile: a namespace in use, a new instance ID each round; cached generator") {

		@Override
		List<String> arguments(StartupStores stores, int round) {
			return List.of("--spring.profiles.active=zookeeper",
					"--uid.worker.zookeeper.connect-string=" + stores.zookeeperConnectString(),
					"--uid.worker.zookeeper.namespace=" + stores.name("zk"), instanceId(round));
		}

		@Override
		boolean needsZookeeper() {
			return true;
		}

	},

	SEGMENT_REDIS("segment on redis", "redis profile, uid.generator=segment: a new key each round (the restart finds "
			+ "it); require-persistence=false (the machine's Redis keeps nothing)") {

		@Override
		List<String> arguments(StartupStores stores, int round) {
			List<String> arguments = new ArrayList<>(stores.redisArguments("segment", instanceId(round)));
			arguments.addAll(List.of("--uid.generator=segment",
					"--uid.segment.redis.key-prefix=" + stores.name("segment"), segmentKey(round),
					"--uid.segment.redis.require-persistence=false"));
			return arguments;
		}

	},

	SEGMENT_DB("segment on db", "mysql profile, uid.generator=segment: segment table (made by the warm-up start), a "
			+ "new key each round (the restart finds it)") {

		@Override
		List<String> arguments(StartupStores stores, int round) {
			return List.of("--spring.profiles.active=mysql", "--spring.datasource.url=" + stores.mariadbUrl(),
					"--uid.generator=segment", "--uid.segment.db.table=" + stores.name("segment"), segmentKey(round));
		}

	};

	/** Every setup, in the order of the tables. */
	static final String ALL = "plain,plain-db,plain-redis,static,db,redis,redis-new,zookeeper,segment-redis,segment-db";

	private final String label;

	private final String settings;

	StartupSetup(String label, String settings) {
		this.label = label;
		this.settings = settings;
	}

	/**
	 * The application arguments of a round's starts.
	 * @param stores the run's stores and names
	 * @param round the round, from 0; -1 for the warm-up start
	 * @return the arguments, ports excluded
	 */
	abstract List<String> arguments(StartupStores stores, int round);

	/** Whether this is the application without uid. */
	boolean isBaseline() {
		return name().startsWith("PLAIN");
	}

	/** The application without uid in this setup's profile: what the setup's start is compared with. */
	StartupSetup baseline() {
		return switch (this) {
			case DB, SEGMENT_DB, PLAIN_DB, PLAIN_DB_USED -> PLAIN_DB;
			case REDIS, REDIS_NEW, SEGMENT_REDIS, PLAIN_REDIS, PLAIN_REDIS_USED -> PLAIN_REDIS;
			default -> PLAIN;
		};
	}

	boolean needsZookeeper() {
		return false;
	}

	/** Whether this setup runs the uid store code that Spring AOT fixes at build time (only the default profile's). */
	boolean runsUnderSpringAot() {
		return this == PLAIN || this == STATIC;
	}

	String label() {
		return this.label;
	}

	String settings() {
		return this.settings;
	}

	/** The name on the command line: {@code redis-new} for {@link #REDIS_NEW}. */
	String option() {
		return name().toLowerCase().replace('_', '-');
	}

	static List<StartupSetup> parse(String names) {
		List<StartupSetup> setups = new ArrayList<>();
		for (String name : names.split(",")) {
			String wanted = name.trim();
			setups.add(Arrays.stream(values())
				.filter((setup) -> setup.option().equals(wanted))
				.findFirst()
				.orElseThrow(() -> new IllegalArgumentException("Unknown setup '" + wanted + "'; setups: "
						+ String.join(",", Arrays.stream(values()).map(StartupSetup::option).toList()))));
		}
		// Every setup is compared with the application without uid in its profile, so that one runs too.
		List<StartupSetup> withBaselines = new ArrayList<>();
		for (StartupSetup setup : values()) {
			if (setups.contains(setup) || setups.stream().anyMatch((wanted) -> wanted.baseline() == setup)) {
				withBaselines.add(setup);
			}
		}
		return withBaselines;
	}

	/** The plain application's arguments, with its store read once while its context starts. */
	private static List<String> usingTheStore(List<String> plain) {
		List<String> arguments = new ArrayList<>(plain);
		arguments.add("--baseline.use-store-at-start=true");
		return arguments;
	}

	private static String instanceId(int round) {
		return "--uid.worker.instance-id=startup-" + ((round < 0) ? "warmup" : "r" + round);
	}

	private static String segmentKey(int round) {
		return "--uid.segment.key=" + ((round < 0) ? "warmup" : "r" + round);
	}

}
