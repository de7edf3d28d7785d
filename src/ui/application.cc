// Placeholder: the application shell lands with the UI.
