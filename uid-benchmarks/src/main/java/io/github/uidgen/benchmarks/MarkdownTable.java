package io.github.uidgen.benchmarks;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects rows and prints them as a Markdown table with aligned columns, ready to paste into the docs.
 */
final class MarkdownTable {

	private final List<String[]> rows = new ArrayList<>();

	private final boolean[] rightAligned;

	MarkdownTable(String... headers) {
		this.rows.add(headers);
		this.rightAligned = new boolean[headers.length];
		for (int i = 1; i < headers.length; i++) {
			this.rightAligned[i] = true;
		}
	}

	/**
	 * Aligns a column of text, such as settings, to the left; figures stay aligned to the right.
	 * @param column the column, counted from 0
	 * @return this table
	 */
	MarkdownTable leftAligned(int column) {
		this.rightAligned[column] = false;
		return this;
	}

	MarkdownTable row(Object... cells) {
		String[] row = new String[this.rows.get(0).length];
		for (int i = 0; i < row.length; i++) {
			row[i] = (i < cells.length && cells[i] != null) ? cells[i].toString() : "";
		}
		this.rows.add(row);
		return this;
	}

	void print(PrintStream out) {
		int columns = this.rows.get(0).length;
		int[] widths = new int[columns];
		for (String[] row : this.rows) {
			for (int i = 0; i < columns; i++) {
				widths[i] = Math.max(Math.max(widths[i], row[i].length()), 3);
			}
		}
		for (int r = 0; r < this.rows.size(); r++) {
			out.println(line(this.rows.get(r), widths));
			if (r == 0) {
				String[] rule = new String[columns];
				for (int i = 0; i < columns; i++) {
					rule[i] = "-".repeat(widths[i] - 1) + (this.rightAligned[i] ? ":" : "-");
				}
				out.println(line(rule, widths));
			}
		}
		out.println();
	}

	private String line(String[] cells, int[] widths) {
		StringBuilder line = new StringBuilder("|");
		for (int i = 0; i < cells.length; i++) {
			String cell = cells[i];
			String pad = " ".repeat(widths[i] - cell.length());
			line.append(' ').append(this.rightAligned[i] ? pad + cell : cell + pad).append(" |");
		}
		return line.toString();
	}

	static String millions(double perSecond) {
		return String.format("%.2fM", perSecond / 1e6);
	}

	static String ratio(double ours, double theirs) {
		if (theirs <= 0 || ours <= 0) {
			return "n/a";
		}
		double ratio = ours / theirs;
		return (ratio >= 10) ? String.format("%.0f×", ratio) : String.format("%.2f×", ratio);
	}

	static String percent(double value) {
		return String.format("%.0f%%", value);
	}

}
