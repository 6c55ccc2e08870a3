//! Rooms placed at a layout's vertices without overlap (seed 000: "when rooms are created for the
//! vertices we'll need to scale up the graph to fit them without overlaps").
