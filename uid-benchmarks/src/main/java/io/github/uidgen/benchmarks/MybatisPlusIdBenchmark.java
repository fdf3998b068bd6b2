package io.github.uidgen.benchmarks;

import java.util.concurrent.TimeUnit;

import com.baomidou.mybatisplus.core.incrementer.DefaultIdentifierGenerator;
import io.github.uidgen.UidGenerator;
import io.github.uidgen.snowflake.CachedUidGenerator;
import io.github.uidgen.snowflake.DefaultUidGenerator;
import io.github.uidgen.mybatisplus.UidIdentifierGenerator;
import io.github.uidgen.worker.FixedWorkerIdAssigner;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What MyBatis-Plus's {@code ASSIGN_ID} costs through uid: {@link UidIdentifierGenerator#nextId(Object)} (the
 * per-class segment-key lookup and the {@code Long} MyBatis-Plus asks for) against the {@code getUID()} it wraps and
 * against that {@code getUID()} boxed, on the same generator, and MyBatis-Plus's own Snowflake for comparison.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class MybatisPlusIdBenchmark {

	/** {@code cached}: the wide cached generator of {@code uid-cached}, never held back by the clock. */
	@Param({ "cached" })
	public String generator;

	private UidGenerator uids;

	private UidIdentifierGenerator identifierGenerator;

	private final Object entity = new Entity();

	private final DefaultIdentifierGenerator mybatisPlusOwn = new DefaultIdentifierGenerator(1, 1);

	@Setup(Level.Trial)
	public void start() {
		this.uids = switch (this.generator) {
			case "cached" -> CachedUidGenerator.builder()
				.layout(Contender.Layouts.wide())
				.boostPower(Contender.Layouts.WIDE_BOOST_POWER)
				.maxAhead(Contender.Layouts.WIDE_MAX_AHEAD)
				.workerIdAssigner(new FixedWorkerIdAssigner(1))
				.build();
			case "default" -> DefaultUidGenerator.builder().workerIdAssigner(new FixedWorkerIdAssigner(1)).build();
			default -> throw new IllegalArgumentException("generator: cached or default, not " + this.generator);
		};
		this.identifierGenerator = new UidIdentifierGenerator(this.uids);
	}

	@TearDown(Level.Trial)
	public void stop() throws Exception {
		((AutoCloseable) this.uids).close();
	}

	@Benchmark
	public long getUid() {
		return this.uids.getUID();
	}

	/** The floor of any {@code IdentifierGenerator}: MyBatis-Plus asks for a {@code Number}, one {@code Long}. */
	@Benchmark
	public Number boxedGetUid() {
		return Long.valueOf(this.uids.getUID());
	}

	@Benchmark
	public Number nextId() {
		return this.identifierGenerator.nextId(this.entity);
	}

	/** What {@code ASSIGN_ID} costs without uid: MyBatis-Plus's own Snowflake. */
	@Benchmark
	public Number mybatisPlusOwn() {
		return this.mybatisPlusOwn.nextId(this.entity);
	}

	/** An entity class without {@code @UidSegmentKey}, as most are. */
	static final class Entity {

	}

}
