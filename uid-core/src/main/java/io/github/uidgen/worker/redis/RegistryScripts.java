package io.github.uidgen.worker.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;

import io.github.uidgen.worker.WorkerAssignmentException;
import io.github.uidgen.worker.WorkerStoreUnavailableException;

import org.springframework.core.io.ClassPathResource;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;

/**
 * The Redis side of {@link RedisWorkerIdAssigner}: the keys of one namespace under their hash tag and the Lua
 * scripts that claim, renew and release on them, with Redis failures turned into the assigner's exceptions.
 */
final class RegistryScripts {

	private static final DefaultRedisScript<List> CLAIM = script("claim.lua", List.class);

	private static final DefaultRedisScript<List> RENEW = script("renew.lua", List.class);

	private static final DefaultRedisScript<Long> RELEASE = script("release.lua", Long.class);

	private final StringRedisTemplate redis;

	private final String hashTag;

	private final List<String> claimKeys;

	private final List<String> renewKeys;

	private final List<String> releaseKeys;

	RegistryScripts(RedisConnectionFactory connectionFactory, String hashTag) {
		this.redis = new StringRedisTemplate(connectionFactory);
		this.hashTag = hashTag;
		String leases = key("leases");
		String tokens = key("tokens");
		String holders = key("holders");
		String marks = key("marks");
		String generation = key("generation");
		this.claimKeys = List.of(leases, tokens, holders, key("instances"), marks, generation);
		this.renewKeys = List.of(leases, tokens, holders, marks, generation);
		this.releaseKeys = List.of(leases, tokens, marks);
	}

	private static <T> DefaultRedisScript<T> script(String name, Class<T> resultType) {
		DefaultRedisScript<T> script = new DefaultRedisScript<>();
		script.setLocation(new ClassPathResource(name, RedisWorkerIdAssigner.class));
		script.setResultType(resultType);
		return script;
	}

	/** Runs the claim script; its reply starts with {@code ok}, {@code full} or {@code wait}. */
	List<String> claim(String... args) {
		return call(CLAIM, this.claimKeys, args);
	}

	/** Runs the renewal script; its reply starts with {@code ok}, {@code wiped}, {@code released} or another. */
	List<String> renew(String... args) {
		return call(RENEW, this.renewKeys, args);
	}

	/** Runs the release script; 1 when the lease was still this claim's. */
	Long release(String... args) {
		return execute(RELEASE, this.releaseKeys, args);
	}

	@SuppressWarnings("unchecked")
	private List<String> call(DefaultRedisScript<List> script, List<String> keys, String... args) {
		List<Object> reply = execute(script, keys, args);
		if (reply == null || reply.isEmpty()) {
			throw new WorkerAssignmentException("Empty reply from a uid Redis script: " + reply);
		}
		return reply.stream().map(RegistryScripts::text).toList();
	}

	private static String text(Object value) {
		return (value instanceof byte[] bytes) ? new String(bytes, StandardCharsets.UTF_8)
				: String.valueOf(value);
	}

	@SuppressWarnings({ "rawtypes", "unchecked" })
	private <T> T execute(DefaultRedisScript script, List<String> keys, String... args) {
		try {
			return (T) this.redis.execute(script, keys, (Object[]) args);
		}
		catch (DataAccessResourceFailureException | QueryTimeoutException ex) {
			throw new WorkerStoreUnavailableException("Cannot reach Redis, which hands out uid worker IDs ("
					+ ex.getMessage() + "); check that it runs and that the connection settings are right.", ex);
		}
		catch (DataAccessException ex) {
			throw new WorkerAssignmentException("Redis refused a uid worker ID script under " + this.hashTag + ": "
					+ ex.getMessage(), ex);
		}
	}

	private String key(String name) {
		return this.hashTag + ":" + name;
	}

}
