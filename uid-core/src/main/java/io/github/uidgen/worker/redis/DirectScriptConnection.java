package io.github.uidgen.worker.redis;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Runs the registry's scripts over one plain socket to a {@link StandaloneRedis}, speaking RESP2 itself: what a claim
 * made while the JVM is cold needs ({@code AUTH}, {@code SELECT}, {@code CLIENT SETNAME}, {@code EVALSHA} and
 * {@code EVAL}) and nothing more. Connects at the first script, and again at the next one after a failure. Failures
 * come out as Spring Data's exceptions, as the connection factory's would, so {@link RegistryScripts} treats both
 * alike.
 */
final class DirectScriptConnection implements RegistryScripts.Transport {

	private final StandaloneRedis redis;

	private Socket socket;

	private InputStream in;

	private OutputStream out;

	DirectScriptConnection(StandaloneRedis redis) {
		this.redis = redis;
	}

	/** Connects, authenticates and selects the database. */
	private void connect() throws IOException {
		this.socket = new Socket();
		this.socket.setTcpNoDelay(true);
		this.socket.connect(new InetSocketAddress(this.redis.host(), this.redis.port()),
				millis(this.redis.connectTimeout()));
		this.socket.setSoTimeout(millis(this.redis.commandTimeout()));
		this.in = new BufferedInputStream(this.socket.getInputStream());
		this.out = new BufferedOutputStream(this.socket.getOutputStream());
		if (this.redis.password() != null) {
			if (this.redis.username() != null) {
				call("AUTH", this.redis.username(), this.redis.password());
			}
			else {
				call("AUTH", this.redis.password());
			}
		}
		if (this.redis.database() != 0) {
			call("SELECT", Integer.toString(this.redis.database()));
		}
		if (this.redis.clientName() != null) {
			call("CLIENT", "SETNAME", this.redis.clientName());
		}
	}

	/** Runs the script by its SHA-1, and by its text when Redis does not have it yet. */
	@Override
	public synchronized List<Object> eval(RedisScript<?> script, List<String> keys, String[] args) {
		try {
			if (this.socket == null) {
				try {
					connect();
				}
				catch (IOException | RuntimeException ex) {
					// Refused AUTH or SELECT: connect afresh next time.
					close();
					throw ex;
				}
			}
			try {
				return asList(call(command("EVALSHA", script.getSha1(), keys, args)));
			}
			catch (RedisSystemException ex) {
				if (ex.getMessage() == null || !ex.getMessage().startsWith("NOSCRIPT")) {
					throw ex;
				}
				return asList(call(command("EVAL", script.getScriptAsString(), keys, args)));
			}
		}
		catch (IOException ex) {
			close();
			String message = "Redis " + this.redis + " did not answer uid's own connection: " + ex;
			throw (ex instanceof SocketTimeoutException) ? new QueryTimeoutException(message, ex)
					: new DataAccessResourceFailureException(message, ex);
		}
	}

	private static String[] command(String name, String script, List<String> keys, String[] args) {
		String[] command = new String[3 + keys.size() + args.length];
		command[0] = name;
		command[1] = script;
		command[2] = Integer.toString(keys.size());
		for (int i = 0; i < keys.size(); i++) {
			command[3 + i] = keys.get(i);
		}
		System.arraycopy(args, 0, command, 3 + keys.size(), args.length);
		return command;
	}

	private Object call(String... command) throws IOException {
		this.out.write(('*' + Integer.toString(command.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
		for (String part : command) {
			byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
			this.out.write(('$' + Integer.toString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
			this.out.write(bytes);
			this.out.write('\r');
			this.out.write('\n');
		}
		this.out.flush();
		return read();
	}

	/** Reads one reply: a string, a number, {@code null}, or a list of these; an error reply is thrown. */
	private Object read() throws IOException {
		int type = this.in.read();
		if (type < 0) {
			throw new IOException("Redis closed the connection");
		}
		String line = line();
		return switch (type) {
			case '+' -> line;
			case '-' -> throw new RedisSystemException(line, null);
			case ':' -> Long.parseLong(line);
			case '$' -> bulk(Integer.parseInt(line));
			case '*' -> array(Integer.parseInt(line));
			default -> throw new IOException("Unexpected reply from Redis, starting with '" + (char) type + "'");
		};
	}

	private String bulk(int length) throws IOException {
		if (length < 0) {
			return null;
		}
		byte[] bytes = this.in.readNBytes(length);
		if (bytes.length < length || this.in.read() != '\r' || this.in.read() != '\n') {
			throw new IOException("Redis closed the connection within a reply");
		}
		return new String(bytes, StandardCharsets.UTF_8);
	}

	private List<Object> array(int length) throws IOException {
		if (length < 0) {
			return null;
		}
		List<Object> items = new ArrayList<>(length);
		for (int i = 0; i < length; i++) {
			items.add(read());
		}
		return items;
	}

	private String line() throws IOException {
		StringBuilder line = new StringBuilder();
		for (int c = this.in.read(); c != '\r'; c = this.in.read()) {
			if (c < 0) {
				throw new IOException("Redis closed the connection within a reply");
			}
			line.append((char) c);
		}
		if (this.in.read() != '\n') {
			throw new IOException("Unexpected reply from Redis: a line not ended by CRLF");
		}
		return line.toString();
	}

	@SuppressWarnings("unchecked")
	private static List<Object> asList(Object reply) {
		return (reply instanceof List<?> list) ? (List<Object>) list : (reply != null) ? List.of(reply) : null;
	}

	private static int millis(Duration duration) {
		return (int) Math.min(Integer.MAX_VALUE, Math.max(1, duration.toMillis()));
	}

	/** Closes the socket; the next script connects again. */
	synchronized void close() {
		if (this.socket != null) {
			try {
				this.socket.close();
			}
			catch (IOException ex) {
				// Nothing is left to send on it.
			}
			this.socket = null;
		}
	}

	@Override
	public String toString() {
		return "DirectScriptConnection[" + this.redis + "]";
	}

}
