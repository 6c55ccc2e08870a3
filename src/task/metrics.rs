//! What each task measures per item: the difficulty and balance columns a dataset builder
//! filters and bins by (`--where`, `warren inspect`).

crate::metrics! {
    /// The metric values of one grid-task item (`maze-steps`, `maze-path`, `grid-steps`).
    pub struct GridTaskMetrics => GRID_TASK_METRICS {
        rows: u32 = "grid rows, walls included",
        cols: u32 = "grid columns, walls included",
        distance: u32 = "steps on a shortest path from start to goal (0 when the goal cannot be reached)",
        feasible: u32 = "1 when the goal can be reached, 0 for an `infeasible` item",
        open_cells: u32 = "open (walkable) cells",
        start_row: u32 = "the start's row",
        start_col: u32 = "the start's column",
        goal_row: u32 = "the goal's row",
        goal_col: u32 = "the goal's column",
        algorithm: u32 = "maze tasks: the spanning-tree algorithm's place in maze::Algorithm::ALL (grid-steps: 0)",
        loops: u32 = "maze tasks: passages braiding opened beyond the spanning tree (independent cycles; 0 in a perfect maze); grid-steps: 0",
        rendering: u32 = "the rendering's place in ascii, coords, adjlist, tokens, png",
        trace_length: u32 = "create and close steps of the solver trace (0 without task.trace)",
        answer_length: u32 = "bytes of the oracle answer",
    }
}

crate::metrics! {
    /// The metric values of one `graph-color` item.
    pub struct GraphColorMetrics => GRAPH_COLOR_METRICS {
        vertices: u32 = "vertices of the graph",
        edges: u32 = "edges of the graph",
        colors: u32 = "the chromatic number, proven by the exact solver",
        greedy_colors: u32 = "colours greedy colouring in index order uses",
        proof_nodes: u32 = "search nodes of the exact solver's proof that colors - 1 do not suffice",
        rendering: u32 = "0: the edge list",
        trace_length: u32 = "steps of the DSATUR trace (0 without task.trace)",
        answer_length: u32 = "bytes of the oracle answer",
    }
}

crate::metrics! {
    /// The metric values of one `coloring-puzzle` item.
    pub struct PuzzleTaskMetrics => PUZZLE_METRICS {
        puzzle_kind: u32 = "the puzzle, in the coloring kind's codes: 1 edge colouring, 2 Eulerian cycle, 3 Eulerian path",
        vertices: u32 = "vertices of the graph",
        edges: u32 = "edges of the graph",
        colors: u32 = "colours an edge may take (1 for Eulerian puzzles, as the coloring kind counts)",
        solver_nodes: u32 = "difficulty: edge puzzles, search nodes the exact solver explored solving the puzzle from its start; Eulerian puzzles, edges walked",
        odd_vertices: u32 = "vertices of odd degree (Eulerian puzzles: 0 for a cycle, 2 for a path)",
        draws: u32 = "puzzles built for the item until one lay in its split (1 = the first)",
        answer_length: u32 = "bytes of the oracle answer",
    }
}
