package io.github.uidgen.autoconfigure;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.uidgen.UidClock;
import io.github.uidgen.worker.redis.RedisWorkerIdAssigner;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisSentinelConnection;

/**
 * A Redis worker-ID claim made as soon as the application's environment is ready, over a plain socket of uid's own
 * ({@link EarlyRedisConnection}), so that the claim, its round trips and its probation (3 s at defaults) pass while the
 * application context is built: with the claim made by the context, the first ID came 3.4 s after the same
 * application's without uid, nearly all of it the probation waited after everything else had started. A socket, not a
 * Redis client: Lettuce, loaded cold beside the application's start, took 1.3–2.3 s to make the claim, and the
 * probation begins only once the claim is made.
 *
 * <p>The context's assigner bean takes the claim ({@link #adoptOr}) only when the context's connection factory talks
 * to the same Redis and database and the {@code uid.worker.*} settings came out the same; then the generator issues
 * with it, recording its layout and first marks over the same socket, and once the application is ready
 * ({@link #handOverOnceReady}) renews and releases it through the context's connection factory: the application's
 * Redis client, which uid leaves unused until then, loads and connects after the start instead of during it. In every
 * other case the claim is given back over the socket and the context claims as it would have. Nobody issues with an
 * early claim before the context's generator has taken it and recorded its first mark.
 */
final class EarlyRedisClaim implements DisposableBean {

	private static final Log logger = LogFactory.getLog(EarlyRedisClaim.class);

	/** How long adopting waits for the client and the assigner to be built; the claim itself is waited for later. */
	private static final long PREPARE_TIMEOUT_SECONDS = 30;

	private final EarlyRedisConnection connection;

	/** What the early claim's assigner renews through once handed over: the context's factory, taken with the claim. */
	private final AdoptingFactory factory = new AdoptingFactory();

	private final CompletableFuture<RedisWorkerIdAssigner> prepared = new CompletableFuture<>();

	private final AtomicBoolean closed = new AtomicBoolean();

	private volatile boolean adopted;

	private EarlyRedisClaim(EarlyRedisConnection connection) {
		this.connection = connection;
	}

	/**
	 * Starts claiming on a thread of its own, when the environment asks for the redis assigner on a standalone Redis
	 * that uid can reach alone.
	 * @param environment the application's environment, ready
	 * @return the claim under way, or {@code null} when it is left to the context
	 */
	static EarlyRedisClaim start(Environment environment) {
		UidProperties properties;
		EarlyRedisConnection connection;
		long maxWorkerId;
		try {
			Binder binder = Binder.get(environment);
			properties = binder.bind("uid", UidProperties.class).orElseGet(UidProperties::new);
			if (!properties.getWorker().getRedis().isEarlyClaim()
					|| properties.getGenerator() == UidProperties.Generator.SEGMENT) {
				return null;
			}
			maxWorkerId = UidPropertyMapper.layout(properties, UidClock.SYSTEM.currentTimeMillis()).getMaxWorkerId();
			connection = EarlyRedisConnection.of(binder);
		}
		catch (RuntimeException ex) {
			// A setting the context will refuse with its own message.
			logger.debug("uid leaves the worker ID's claim to the application context", ex);
			return null;
		}
		if (connection == null) {
			return null;
		}
		EarlyRedisClaim claim = new EarlyRedisClaim(connection);
		Thread thread = new Thread(() -> claim.claim(properties, environment, maxWorkerId), "uid-early-claim");
		thread.setDaemon(true);
		thread.start();
		logger.info("uid claims its worker ID from Redis " + connection.describe()
				+ " while the application starts (uid.worker.redis.early-claim)");
		return claim;
	}

	private void claim(UidProperties properties, Environment environment, long maxWorkerId) {
		Runnable claim;
		try {
			RedisWorkerIdAssigner assigner = RedisWorkerIdAssignerAutoConfiguration.assigner(properties, this.factory,
					environment);
			claim = assigner.claimAhead(maxWorkerId, this.connection.direct());
			this.prepared.complete(assigner);
		}
		catch (RuntimeException ex) {
			this.prepared.completeExceptionally(ex);
			return;
		}
		claim.run();
	}

	/**
	 * Returns the assigner that made the early claim, renewing through the context's factory from now on, when it
	 * claims where, and as, the context's assigner would; otherwise gives the claim back and returns the context's
	 * assigner.
	 * @param contextFactory the context's connection factory
	 * @param fromContext the assigner the context built, not yet used
	 * @return the assigner the generator is to use
	 */
	RedisWorkerIdAssigner adoptOr(RedisConnectionFactory contextFactory, RedisWorkerIdAssigner fromContext) {
		RedisWorkerIdAssigner early = awaitPrepared();
		String differs = (early != null) ? difference(contextFactory, fromContext, early) : null;
		if (early != null && differs == null && !this.closed.get()) {
			this.factory.adopt(contextFactory);
			this.adopted = true;
			return early;
		}
		if (differs != null) {
			logger.info("uid does not use the worker ID it claimed before the application context started: "
					+ differs + "; the generator claims on the application's connection factory");
		}
		close();
		return fromContext;
	}

	private String difference(RedisConnectionFactory contextFactory, RedisWorkerIdAssigner fromContext,
			RedisWorkerIdAssigner early) {
		if (!this.connection.sameRedisAs(contextFactory)) {
			return "the application's connection factory does not talk to the standalone Redis "
					+ this.connection.describe() + " that spring.data.redis.* names";
		}
		boolean same = fromContext.getKeyTag().equals(early.getKeyTag())
				&& fromContext.getInstanceId().equals(early.getInstanceId())
				&& fromContext.getLeaseDuration().equals(early.getLeaseDuration())
				&& fromContext.getHeartbeatInterval().equals(early.getHeartbeatInterval())
				&& fromContext.getRegistryLossMargin().equals(early.getRegistryLossMargin())
				&& fromContext.getRegistryTrust() == early.getRegistryTrust()
				&& fromContext.isAllowEvictingPolicy() == early.isAllowEvictingPolicy();
		return same ? null : "the uid.worker.* settings changed while the context started (" + early + " before, "
				+ fromContext + " now)";
	}

	private RedisWorkerIdAssigner awaitPrepared() {
		try {
			return this.prepared.get(PREPARE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return null;
		}
		catch (Exception ex) {
			logger.debug("uid's early claim could not start", ex);
			return null;
		}
	}

	/**
	 * Gives the claim back unless the generator took it: the application started without using it. On a thread of
	 * its own, since the claim may still stand its probation, which the application's start need not wait for.
	 */
	void closeIfUnused() {
		if (!this.adopted) {
			Thread thread = new Thread(this::close, "uid-early-claim-release");
			thread.setDaemon(true);
			thread.start();
		}
	}

	/**
	 * Hands the adopted claim over to the context's connection factory, on a thread of its own: connects the factory
	 * first (a cold client takes a second or more), so that the first renewal through it does not wait for that, then
	 * sends every script through it and closes the socket. Does nothing when the context did not take the claim.
	 */
	void handOverOnceReady() {
		if (this.adopted) {
			Thread thread = new Thread(this::handOver, "uid-early-claim-hand-over");
			thread.setDaemon(true);
			thread.start();
		}
	}

	private void handOver() {
		RedisWorkerIdAssigner early = awaitPrepared();
		if (early == null) {
			return;
		}
		try (RedisConnection connection = this.factory.getConnection()) {
			connection.ping();
		}
		catch (RuntimeException ex) {
			// The renewal through it will tell, as for any renewal.
			logger.debug("uid could not connect the application's Redis connection factory before handing over", ex);
		}
		early.handOverToConnectionFactory();
		logger.debug("uid renews its worker ID through the application's Redis connection factory from now on");
	}

	/** Gives an unused claim back over its socket, and closes the socket; once. */
	void close() {
		if (this.closed.getAndSet(true)) {
			return;
		}
		// A claim the generator did not take (not adopted, or the generator failed before it claimed) goes back; the
		// socket of one it took, the application closing before it was ready, closes.
		RedisWorkerIdAssigner early = awaitPrepared();
		if (early != null) {
			early.abandonClaimAhead();
		}
	}

	/** With the context: a claim nobody took goes back. */
	@Override
	public void destroy() {
		close();
	}

	boolean isAdopted() {
		return this.adopted;
	}

	@Override
	public String toString() {
		return "EarlyRedisClaim[" + this.connection.describe() + ", adopted " + this.adopted + ", closed "
				+ this.closed.get() + "]";
	}

	/**
	 * The connection factory of the early claim's assigner: nothing until the context takes the claim (the claim goes
	 * over its socket), the context's own factory from then on, so that uid renews through the client the application
	 * configured, once handed over, and needs no second one.
	 */
	private static final class AdoptingFactory implements RedisConnectionFactory {

		private volatile RedisConnectionFactory context;

		void adopt(RedisConnectionFactory context) {
			this.context = context;
		}

		private RedisConnectionFactory context() {
			RedisConnectionFactory context = this.context;
			if (context == null) {
				throw new IllegalStateException("uid's early Redis claim was not taken by the application context");
			}
			return context;
		}

		@Override
		public RedisConnection getConnection() {
			return context().getConnection();
		}

		@Override
		public RedisClusterConnection getClusterConnection() {
			return context().getClusterConnection();
		}

		@Override
		public boolean getConvertPipelineAndTxResults() {
			return context().getConvertPipelineAndTxResults();
		}

		@Override
		public RedisSentinelConnection getSentinelConnection() {
			return context().getSentinelConnection();
		}

		@Override
		public DataAccessException translateExceptionIfPossible(RuntimeException ex) {
			return context().translateExceptionIfPossible(ex);
		}

	}

}
